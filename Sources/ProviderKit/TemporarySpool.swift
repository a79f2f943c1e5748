import Foundation
import ProviderAPI

/// Copies an upload source of unknown length (a pipe, standard input) to a temporary file, a
/// piece at a time, for servers that need a length before the body: memory stays flat.
///
/// ```swift
/// let url = try await TemporarySpool.spool(source)
/// defer { try? FileManager.default.removeItem(at: url) }
/// let sized = try FileSource(url: url)
/// ```
package enum TemporarySpool {
    /// Writes `source` to a new temporary file and returns its URL; the caller removes it.
    package static func spool(_ source: any UploadSource) async throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-spool-\(UUID().uuidString)")
        let sink = FileSink(url: url, durable: false)
        try await sink.begin(offset: 0, expectedLength: nil, validator: nil)
        do {
            for try await piece in try source.makeStream() { try await sink.write(piece) }
            try await sink.finish()
        } catch {
            await sink.fail()
            throw ProviderError.wrap(error)
        }
        return url
    }
}

import Foundation
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension LocalFolder {
    /// The prefix of the temporary files ``commit(_:as:placement:modified:durable:expectedLength:progress:)``
    /// writes; adapters leave names with it out of listings.
    package static let temporaryPrefix = ".strata-upload-"

    /// Writes `body` into a new file and puts it under `name` in this folder atomically: nothing
    /// partial is ever seen under `name`.
    ///
    /// The bytes go to a hidden temporary file in this folder (``temporaryPrefix``, created with
    /// `O_EXCL | O_NOFOLLOW`); it is flushed (`fsync`), given `modified` if set, and then
    /// renamed over `name` (``UploadPlacement/replace``) or linked to `name` only if the name is
    /// free (``UploadPlacement/exclusive``, `linkat`: the file system decides, so two writers
    /// never both win). On any failure or cancellation the temporary file is removed. The file
    /// is created, written (in batches of about 1 MiB), flushed and placed on swift-nio's blocking
    /// thread pool (``BlockingIO``), never on the caller's thread.
    ///
    /// ```swift
    /// let entry = try await folder.commit(try source.makeStream(), as: "q3.pdf", placement: .exclusive)
    /// ```
    ///
    /// - Parameters:
    ///   - body: the file's bytes, in order (an `UploadStream`, a `LocalFile`'s chunks, any
    ///     sequence of `ByteBuffer`).
    ///   - name: the name the file takes in this folder.
    ///   - placement: ``UploadPlacement/replace`` to rename over whatever is at `name`,
    ///     ``UploadPlacement/exclusive`` to take `name` only if it is free.
    ///   - modified: the modified time to give the file; `nil` keeps the time of the write.
    ///   - durable: also flush the folder after the rename, so the new name survives a crash.
    ///   - expectedLength: the length the body must have, when known; a body of another length
    ///     is `ProviderError.Code.conflict` and nothing is committed.
    ///   - progress: told the bytes written so far after each piece.
    /// - Returns: what the new file is.
    /// - Throws: `ProviderError.Code.alreadyExists` for a taken name under ``UploadPlacement/exclusive``.
    package func commit<Body: AsyncSequence>(
        _ body: Body, as name: String, placement: UploadPlacement, modified: Date? = nil, durable: Bool = true,
        expectedLength: Int64? = nil, progress: ProgressHandler? = nil
    ) async throws -> LocalEntry where Body.Element == ByteBuffer {
        let temporary = Self.temporaryPrefix + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let file = try await BlockingIO.run { try self.createFile(named: temporary) }
        do {
            var written: Int64 = 0
            // Pieces are written in batches of about 1 MiB, one hop to the blocking pool each.
            var batch = WriteBatch()
            progress?(TransferProgress(completed: 0, expected: expectedLength))
            for try await piece in body {
                try Task.checkCancellation()
                written += Int64(piece.readableBytes)
                if batch.append(piece) {
                    let pieces = batch.take()
                    try await BlockingIO.run { for piece in pieces { try file.write(piece) } }
                }
                progress?(TransferProgress(completed: written, expected: expectedLength))
            }
            try Task.checkCancellation()
            if let expectedLength, written != expectedLength {
                throw ProviderError(.conflict, "the source gave \(written) bytes, not the \(expectedLength) it declared")
            }
            let pieces = batch.take()
            return try await BlockingIO.run {
                for piece in pieces { try file.write(piece) }
                try file.sync()
                if let modified { try file.setModified(modified) }
                let entry = try file.entry()
                switch placement {
                case .replace:
                    try self.rename(temporary, to: self, as: name)
                case .exclusive:
                    try self.link(temporary, to: self, as: name)
                    _ = unlinkat(self.descriptor, temporary, 0)
                }
                if durable { try? self.sync() }
                return entry
            }
        } catch {
            await BlockingIO.cleanUp { _ = unlinkat(self.descriptor, temporary, 0) }
            throw ProviderError.wrap(error, fallback: .io)
        }
    }
}

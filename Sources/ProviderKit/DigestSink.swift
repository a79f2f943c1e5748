import NIOCore
import ProviderAPI

/// A download sink that keeps nothing but a running digest of the bytes and their count: how a
/// file is compared with a digest it does not declare (or checked after a crash against the copy
/// kept locally), reading it once, streamed.
///
/// Like every sink, a `begin` at offset 0 starts over, and one at the number of bytes taken so far
/// continues a cut download; any other offset is `ProviderError.Code.conflict`.
///
/// ```swift
/// guard let sink = DigestSink(.sha256) else { return }
/// _ = try await provider.download(path, to: sink, options: DownloadOptions())
/// let sha256 = await sink.digest
/// ```
package actor DigestSink: DownloadSink {
    private let fresh: Digester
    private var digester: Digester
    private var taken: Int64 = 0
    private var finished = false

    /// A sink computing `algorithm`, or `nil` if Strata does not compute it (see ``Digester``).
    package init?(_ algorithm: DigestAlgorithm) {
        guard let digester = Digester(algorithm) else { return nil }
        self.fresh = digester
        self.digester = digester
    }

    /// The lowercase hex digest, once the download finished.
    package var digest: String? { finished ? digester.finalize() : nil }
    /// The bytes received.
    package var size: Int64 { taken }

    /// Always `nil`: nothing is kept to resume from.
    package func resumePoint() async throws -> ResumePoint? { nil }

    package func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws {
        if offset == 0 {
            digester = fresh
            taken = 0
            finished = false
        }
        guard offset == taken else {
            throw ProviderError(.conflict, "a digest cannot restart at byte \(offset) after \(taken) bytes")
        }
    }

    package func write(_ buffer: ByteBuffer) async throws {
        digester.update(buffer)
        taken += Int64(buffer.readableBytes)
    }

    package func finish() async throws { finished = true }
    package func fail() async {}
}

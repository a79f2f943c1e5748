import NIOCore
import ProviderAPI
import ProviderKit

/// A download sink that keeps nothing but a running digest of the bytes: how a source that
/// declares no digest is compared with a destination that does, reading the file once, streamed.
actor DigestSink: DownloadSink {
    private var digester: Digester
    private var taken: Int64 = 0
    private var finished = false

    /// A sink computing `algorithm`, or `nil` if Strata does not compute it.
    init?(_ algorithm: DigestAlgorithm) {
        guard let digester = Digester(algorithm) else { return nil }
        self.digester = digester
    }

    /// The digest, once the download finished.
    var digest: String? { finished ? digester.finalize() : nil }

    func resumePoint() async throws -> ResumePoint? { nil }

    func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws {
        guard offset == taken else {
            throw ProviderError(.conflict, "a digest cannot restart at byte \(offset) after \(taken) bytes")
        }
    }

    func write(_ buffer: ByteBuffer) async throws {
        digester.update(buffer)
        taken += Int64(buffer.readableBytes)
    }

    func finish() async throws { finished = true }
    func fail() async {}
}

import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI

/// A download sink that streams a body into the blob store.
///
/// The body goes to a temporary file; ``finish()`` flushes it, verifies the
/// expected digest (or computes its SHA-256), renames it into the store and
/// registers it, then sets ``key``. A failure or a digest mismatch leaves
/// nothing behind. Downloads into a blob never resume: ``resumePoint()`` is nil.
public final class BlobSink: DownloadSink, Sendable {
    private let store: BlobStore
    private let expectedDigest: String?
    private let algorithm: DigestAlgorithm
    private let state = NIOLockedValueBox<(writer: BlobWriter?, key: String?)>((nil, nil))

    init(store: BlobStore, expectedDigest: String?, algorithm: DigestAlgorithm) {
        self.store = store
        self.expectedDigest = expectedDigest
        self.algorithm = algorithm
    }

    /// The blob's key once ``finish()`` succeeded.
    public var key: String? { state.withLockedValue { $0 }.key }

    public func resumePoint() async throws -> ResumePoint? { nil }

    public func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws {
        guard offset == 0 else { throw ProviderError(.invalidArgument, "a blob sink cannot resume at \(offset)") }
        let writer = try BlobWriter(store: store, expectedDigest: expectedDigest, algorithm: algorithm)
        let previous = state.withLockedValue { state -> BlobWriter? in
            let previous = state.writer
            state = (writer, nil)
            return previous
        }
        previous?.abandon()
    }

    public func write(_ buffer: ByteBuffer) async throws {
        guard let writer = state.withLockedValue({ $0 }).writer else { throw ProviderError(.invalidArgument, "write before begin") }
        try writer.write(buffer)
    }

    public func finish() async throws {
        guard let writer = state.withLockedValue({ $0 }).writer else { throw ProviderError(.invalidArgument, "finish before begin") }
        do {
            let key = try await writer.finish()
            state.withLockedValue { $0 = (nil, key) }
        } catch {
            writer.abandon()
            state.withLockedValue { $0.writer = nil }
            throw CacheStore.wrap(error)
        }
    }

    public func fail() async {
        let writer = state.withLockedValue { state -> BlobWriter? in
            let writer = state.writer
            state.writer = nil
            return writer
        }
        writer?.abandon()
    }
}

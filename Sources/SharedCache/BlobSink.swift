import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI
import ProviderKit

/// A download sink that streams a body into the blob store.
///
/// The body goes to a temporary file; ``finish()`` flushes it, verifies the
/// expected digest (or computes its SHA-256), renames it into the store and
/// registers it, then sets ``key``. A failure or a digest mismatch leaves
/// nothing behind. Downloads into a blob never resume: ``resumePoint()`` is nil.
package final class BlobSink: DownloadSink, Sendable {
    private let store: BlobStore
    private let expectedDigest: String?
    private let algorithm: DigestAlgorithm
    private let state = NIOLockedValueBox<State>(State())

    private struct State {
        var writer: BlobWriter?
        var key: String?
        /// Pieces taken and not yet written: written in batches of about 1 MiB, one hop to the
        /// blocking thread pool each, never on the caller's thread.
        var pending = WriteBatch()
    }

    init(store: BlobStore, expectedDigest: String?, algorithm: DigestAlgorithm) {
        self.store = store
        self.expectedDigest = expectedDigest
        self.algorithm = algorithm
    }

    /// The blob's key once ``finish()`` succeeded.
    package var key: String? { state.withLockedValue { $0.key } }

    package func resumePoint() async throws -> ResumePoint? { nil }

    package func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws {
        guard offset == 0 else { throw ProviderError(.invalidArgument, "a blob sink cannot resume at \(offset)") }
        let (store, expectedDigest, algorithm) = (store, expectedDigest, algorithm)
        let writer = try await BlockingIO.run { try BlobWriter(store: store, expectedDigest: expectedDigest, algorithm: algorithm) }
        let previous = state.withLockedValue { state -> BlobWriter? in
            let previous = state.writer
            state = State(writer: writer)
            return previous
        }
        if let previous { await BlockingIO.cleanUp { previous.abandon() } }
    }

    package func write(_ buffer: ByteBuffer) async throws {
        let (writer, full) = state.withLockedValue { state -> (BlobWriter?, [ByteBuffer]) in
            guard state.writer != nil, state.pending.append(buffer) else { return (state.writer, []) }
            return (state.writer, state.pending.take())
        }
        guard let writer else { throw ProviderError(.invalidArgument, "write before begin") }
        try await writer.write(full)
    }

    package func finish() async throws {
        let (writer, rest) = state.withLockedValue { state in (state.writer, state.pending.take()) }
        guard let writer else { throw ProviderError(.invalidArgument, "finish before begin") }
        do {
            try await writer.write(rest)
            let key = try await writer.finish()
            state.withLockedValue { $0 = State(key: key) }
        } catch {
            await BlockingIO.cleanUp { writer.abandon() }
            state.withLockedValue { $0.writer = nil }
            throw CacheStore.wrap(error)
        }
    }

    package func fail() async {
        let writer = state.withLockedValue { state -> BlobWriter? in
            let writer = state.writer
            state = State()
            return writer
        }
        if let writer { await BlockingIO.cleanUp { writer.abandon() } }
    }
}

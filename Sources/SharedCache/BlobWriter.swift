import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI
import ProviderKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One blob being written: a temporary file in the store's temporary area and the digest of what went in.
///
/// Its synchronous methods make system calls on the calling thread: the store and ``BlobSink``
/// call them on the blocking thread pool (`BlockingIO` in ProviderKit).
///
/// The file, the digest and the count move together behind one lock, so a write racing an
/// ``abandon()`` never writes to a closed file or counts bytes that were not kept.
final class BlobWriter: Sendable {
    private struct State {
        var file: PosixFile?
        var digester: Digester
        var size: Int64 = 0
    }

    private let store: BlobStore
    private let expected: String?
    private let temporary: URL
    private let state: NIOLockedValueBox<State>

    /// Starts a blob; `expectedDigest` is a hex digest of `algorithm`, or nil to key the blob by its SHA-256.
    init(store: BlobStore, expectedDigest: String?, algorithm: DigestAlgorithm) throws {
        let algorithm = expectedDigest == nil ? DigestAlgorithm.sha256 : algorithm
        guard let digester = Digester(algorithm) else { throw ProviderError.unsupported("digest algorithm \(algorithm)") }
        if let expectedDigest {
            guard let key = BlobStore.key(expectedDigest) else {
                throw ProviderError(.invalidArgument, "not a hex digest: \(expectedDigest)")
            }
            expected = key
        } else {
            expected = nil
        }
        self.store = store
        temporary = store.temp.newFile()
        let file = try PosixFile.open(temporary.path, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        state = NIOLockedValueBox(State(file: file, digester: digester))
    }

    func write(_ buffer: ByteBuffer) throws {
        try state.withLockedValue { state in
            guard let file = state.file else { throw ProviderError(.invalidArgument, "blob write after finish") }
            try file.write(buffer)
            state.digester.update(buffer)
            state.size += Int64(buffer.readableBytes)
        }
    }

    /// Writes `pieces`, in order, in one hop to the blocking thread pool (`BlockingIO` in ProviderKit).
    func write(_ pieces: [ByteBuffer]) async throws {
        guard !pieces.isEmpty else { return }
        try await BlockingIO.run { for piece in pieces { try self.write(piece) } }
    }

    /// Flushes, verifies and commits the blob; returns its key. The flush, the close and the
    /// checks of the file run on the blocking thread pool (`BlockingIO` in ProviderKit), in one hop.
    func finish() async throws -> String {
        let (computed, size) = try await BlockingIO.run { () throws -> (String, Int64) in
            let (computed, size) = try self.state.withLockedValue { state -> (String, Int64) in
                guard let file = state.file else { throw ProviderError(.invalidArgument, "blob finished twice") }
                try file.sync()
                file.closeNow()
                state.file = nil
                return (state.digester.finalize(), state.size)
            }
            if let expected = self.expected, expected != computed {
                self.abandon()
                throw ProviderError(.integrity, "blob digest \(computed) does not match the expected \(expected)")
            }
            guard PosixFile.regularFileSize(atPath: self.temporary.path) == size else {
                self.abandon()
                throw ProviderError(.integrity, "blob temporary file does not hold the \(size) bytes written")
            }
            return (computed, size)
        }
        try await store.commit(temporary: temporary, key: computed, size: size)
        return computed
    }

    /// Deletes the temporary file.
    func abandon() {
        let file = state.withLockedValue { state -> PosixFile? in
            defer { state.file = nil }
            return state.file
        }
        file?.closeNow()
        PosixFile.remove(temporary.path)
    }
}

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

    /// Flushes, verifies and commits the blob; returns its key.
    func finish() async throws -> String {
        let (computed, size) = try state.withLockedValue { state -> (String, Int64) in
            guard let file = state.file else { throw ProviderError(.invalidArgument, "blob finished twice") }
            try file.sync()
            file.closeNow()
            state.file = nil
            return (state.digester.finalize(), state.size)
        }
        if let expected, expected != computed {
            abandon()
            throw ProviderError(.integrity, "blob digest \(computed) does not match the expected \(expected)")
        }
        guard PosixFile.regularFileSize(atPath: temporary.path) == size else {
            abandon()
            throw ProviderError(.integrity, "blob temporary file does not hold the \(size) bytes written")
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

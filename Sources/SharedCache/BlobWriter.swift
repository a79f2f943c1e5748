import Foundation
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
final class BlobWriter: @unchecked Sendable {
    private let store: BlobStore
    private let expected: String?
    private let temporary: URL
    private var file: BlobFile?
    private var digester: Digester
    private var size: Int64 = 0

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
        self.digester = digester
        temporary = store.temp.newFile()
        file = try BlobFile.open(temporary.path, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
    }

    func write(_ buffer: ByteBuffer) throws {
        guard let file else { throw ProviderError(.invalidArgument, "blob write after finish") }
        try file.write(buffer)
        digester.update(buffer)
        size += Int64(buffer.readableBytes)
    }

    /// Flushes, verifies and commits the blob; returns its key.
    func finish() throws -> String {
        guard let file else { throw ProviderError(.invalidArgument, "blob finished twice") }
        try file.sync()
        file.close()
        self.file = nil
        let computed = digester.finalize()
        if let expected, expected != computed {
            abandon()
            throw ProviderError(.integrity, "blob digest \(computed) does not match the expected \(expected)")
        }
        guard BlobFile.size(temporary.path) == size else {
            abandon()
            throw ProviderError(.integrity, "blob temporary file does not hold the \(size) bytes written")
        }
        try store.commit(temporary: temporary, key: computed, size: size)
        return computed
    }

    /// Deletes the temporary file.
    func abandon() {
        file?.close()
        file = nil
        BlobFile.remove(temporary.path)
    }
}

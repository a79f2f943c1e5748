import Crypto
import Foundation
import NIOCore
import ProviderAPI

/// Computes a content digest incrementally, for the algorithms servers declare.
public struct Digester: Sendable {
    private enum State: Sendable {
        case md5(Insecure.MD5)
        case sha1(Insecure.SHA1)
        case sha256(SHA256)
        /// Only while `update` holds the hash (never seen outside it).
        case updating
    }

    private var state: State
    /// The algorithm.
    public let algorithm: DigestAlgorithm

    /// A digester for `algorithm`, or `nil` if it is not one Strata computes.
    public init?(_ algorithm: DigestAlgorithm) {
        self.algorithm = algorithm
        switch algorithm {
        case .md5: state = .md5(Insecure.MD5())
        case .sha1: state = .sha1(Insecure.SHA1())
        case .sha256: state = .sha256(SHA256())
        default: return nil
        }
    }

    /// Adds bytes, hashing them where the buffer holds them (no copy).
    public mutating func update(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { raw in update(raw) }
    }

    /// Hashes `raw` into the state in place: the hash is taken out of `state` first, so that
    /// swift-crypto's copy-on-write context is uniquely referenced and not copied on each update.
    private mutating func update(_ raw: UnsafeRawBufferPointer) {
        switch state {
        case .md5(var hash):
            state = .updating
            hash.update(bufferPointer: raw)
            state = .md5(hash)
        case .sha1(var hash):
            state = .updating
            hash.update(bufferPointer: raw)
            state = .sha1(hash)
        case .sha256(var hash):
            state = .updating
            hash.update(bufferPointer: raw)
            state = .sha256(hash)
        case .updating:
            break
        }
    }

    /// The digest as lowercase hex.
    public func finalize() -> String {
        switch state {
        case .md5(let hash): return hex(hash.finalize())
        case .sha1(let hash): return hex(hash.finalize())
        case .sha256(let hash): return hex(hash.finalize())
        case .updating: return ""
        }
    }

    private func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    /// The digest of `bytes`.
    package static func hex(_ algorithm: DigestAlgorithm, of bytes: [UInt8]) -> String? {
        guard var digester = Digester(algorithm) else { return nil }
        digester.update(ByteBuffer(bytes: bytes))
        return digester.finalize()
    }
}

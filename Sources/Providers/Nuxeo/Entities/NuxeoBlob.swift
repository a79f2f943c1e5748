import Foundation
import ProviderAPI
import HTTPProviderKit

/// A blob property value, such as `file:content`.
///
/// Any field may be null. `length` is a string on every server version seen (`"588"`) and is
/// read from a string or a number.
package struct NuxeoBlob: Sendable, Hashable {
    /// The file name the blob was stored with.
    package var name: String?
    /// The MIME type (`mime-type`).
    package var mimeType: String?
    /// The character encoding, for text.
    package var encoding: String?
    /// The server's digest algorithm name (`MD5`, `SHA-256`), `nil` for old or external blobs.
    package var digestAlgorithmName: String?
    /// The digest, usually lowercase hex; a non-hex value means "do not verify".
    package var digest: String?
    /// The size in bytes.
    package var length: Int64?
    /// The download URL the server wrote (`…/nxfile/…?changeToken=…`).
    package var data: String?

    /// Reads a blob object; `nil` for null or anything that is not an object.
    package init?(json: JSONValue) {
        guard case .object(let members) = json else { return nil }
        name = members["name"]?.stringValue
        mimeType = members["mime-type"]?.stringValue
        encoding = members["encoding"]?.stringValue
        digestAlgorithmName = members["digestAlgorithm"]?.stringValue
        digest = members["digest"]?.stringValue
        // A negative length is no size.
        length = members["length"]?.int64Value.flatMap { $0 >= 0 ? $0 : nil }
        data = members["data"]?.stringValue
    }

    /// Creates a blob description.
    package init(
        name: String? = nil, mimeType: String? = nil, encoding: String? = nil, digestAlgorithmName: String? = nil,
        digest: String? = nil, length: Int64? = nil, data: String? = nil
    ) {
        self.name = name
        self.mimeType = mimeType
        self.encoding = encoding
        self.digestAlgorithmName = digestAlgorithmName
        self.digest = digest
        self.length = length
        self.data = data
    }

    private static func isASCIIHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    /// The digest as a verifiable (algorithm, lowercase hex) pair, or `nil` when it cannot be verified.
    ///
    /// The algorithm comes from `digestAlgorithm` (`MD5`, `SHA-1`, `SHA-256`, `SHA-512`, any case,
    /// with or without the dash); when that is null it is inferred from the hex length
    /// (32 md5, 40 sha1, 64 sha256, 128 sha512). A non-hex digest (Drive's `notInBinaryStore`,
    /// a provider key) gives `nil`.
    package var verifiableDigest: (algorithm: DigestAlgorithm, hex: String)? {
        guard let digest, !digest.isEmpty else { return nil }
        let ascii = digest.utf8.allSatisfy(Self.isASCIIHexDigit)
        guard ascii || digest.allSatisfy(\.isHexDigit) else { return nil }
        // Lowercase hex (what servers send) is taken as it is, without a copy.
        let hex = ascii && !digest.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }) ? digest : digest.lowercased()
        let length = ascii ? hex.utf8.count : hex.count
        if let name = digestAlgorithmName, !name.isEmpty {
            let normalized = Self.normalizedAlgorithm(name)
            let algorithm = DigestAlgorithm(rawValue: normalized)
            let expectedLength: Int? = switch normalized {
            case "md5": 32
            case "sha1": 40
            case "sha256": 64
            case "sha512": 128
            default: nil
            }
            if let expectedLength, expectedLength != length { return nil }
            return (algorithm, hex)
        }
        switch length {
        case 32: return (.md5, hex)
        case 40: return (.sha1, hex)
        case 64: return (.sha256, hex)
        case 128: return (DigestAlgorithm(rawValue: "sha512"), hex)
        default: return nil
        }
    }

    /// An algorithm name in lowercase without dashes or underscores (`SHA-256` → `sha256`).
    private static func normalizedAlgorithm(_ name: String) -> String {
        // The spellings servers send, without building a new string.
        switch name {
        case "MD5", "md5": return "md5"
        case "SHA-1", "SHA1", "sha1", "sha-1": return "sha1"
        case "SHA-256", "SHA256", "sha256", "sha-256": return "sha256"
        case "SHA-512", "SHA512", "sha512", "sha-512": return "sha512"
        default: break
        }
        // ASCII names (all of them in practice) without Foundation's replace.
        return name.utf8.allSatisfy { $0 < 0x80 }
            ? String(decoding: name.lowercased().utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") }, as: UTF8.self)
            : name.lowercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")
    }
}

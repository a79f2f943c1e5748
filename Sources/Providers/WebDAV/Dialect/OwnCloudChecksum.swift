import Foundation
import ProviderAPI
import ProviderKit

/// ownCloud/Nextcloud checksums: the `oc:checksums` property (`SHA1:… MD5:… ADLER32:…`) and
/// the `OC-Checksum` header (`SHA1:…`) sent with an upload.
package enum OwnCloudChecksum {
    /// The digests in an `oc:checksum` value, by algorithm, lowercase hex; algorithms Strata
    /// does not know (ADLER32) are kept under their own lowercased name, malformed tokens dropped.
    package static func parse(_ text: String) -> [DigestAlgorithm: String] {
        var digests: [DigestAlgorithm: String] = [:]
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "," }) {
            guard let colon = token.firstIndex(of: ":") else { continue }
            let name = token[..<colon].lowercased()
            let value = token[token.index(after: colon)...].lowercased()
            guard !name.isEmpty, !value.isEmpty, value.allSatisfy(\.isHexDigit) else { continue }
            let algorithm: DigestAlgorithm
            switch name {
            case "sha1": algorithm = .sha1
            case "md5": algorithm = .md5
            case "sha256": algorithm = .sha256
            default: algorithm = DigestAlgorithm(rawValue: name)
            }
            if digests[algorithm] == nil { digests[algorithm] = value }
        }
        return digests
    }

    /// The `OC-Checksum` header value for a digest: `SHA1:hex`.
    package static func header(_ algorithm: DigestAlgorithm, _ hex: String) -> String {
        "\(algorithm.rawValue.uppercased()):\(hex.lowercased())"
    }

    /// Reads `source` once and returns its digest.
    package static func digest(of source: any UploadSource, algorithm: DigestAlgorithm = .sha1) async throws -> String {
        guard var digester = Digester(algorithm) else { throw ProviderError.unsupported("\(algorithm) digests") }
        do {
            for try await piece in try source.makeStream() {
                try Task.checkCancellation()
                digester.update(piece)
            }
        } catch {
            throw ProviderError.wrap(error, fallback: .invalidArgument)
        }
        return digester.finalize()
    }
}

import Crypto
import Foundation

/// The checksums ownCloud and Nextcloud exchange in `OC-Checksum` and `oc:checksums`.
enum Checksums {
    /// Lowercase hex digest of `data` for `SHA1`, `MD5`, `SHA256` or `ADLER32` (case-insensitive), `nil` for others.
    static func digest(_ algorithm: String, of data: Data) -> String? {
        switch algorithm.uppercased() {
        case "SHA1": return hex(Insecure.SHA1.hash(data: data))
        case "MD5": return hex(Insecure.MD5.hash(data: data))
        case "SHA256": return hex(SHA256.hash(data: data))
        case "ADLER32": return adler32(data)
        default: return nil
        }
    }

    /// ownCloud 10's stored list: `SHA1:… MD5:… ADLER32:…`.
    static func ownCloudList(_ data: Data) -> String {
        ["SHA1", "MD5", "ADLER32"].map { "\($0):\(digest($0, of: data) ?? "")" }.joined(separator: " ")
    }

    /// The `ALGO:hex` pairs of an `OC-Checksum` header (separated by spaces or `|`).
    static func parse(_ header: String) -> [(algorithm: String, value: String)] {
        header.split(whereSeparator: { $0 == " " || $0 == "|" || $0 == "," }).compactMap { item in
            let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
            return (parts[0], parts[1])
        }
    }

    /// `nil` when every supported checksum of the header matches `data`, else the message of the
    /// 400 answer. An unknown algorithm is refused too.
    static func verify(_ header: String, _ data: Data) -> String? {
        let pairs = parse(header)
        guard !pairs.isEmpty else { return "Unsupported checksum header: \(header)" }
        for pair in pairs {
            guard let computed = digest(pair.algorithm, of: data) else {
                return "Unsupported checksum algorithm: \(pair.algorithm)"
            }
            if computed.lowercased() != pair.value.lowercased() {
                return "The computed checksum does not match the one received from the client."
            }
        }
        return nil
    }

    private static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    private static func adler32(_ data: Data) -> String {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let value = (b << 16) | a
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 8 - text.count) + text
    }
}

import Foundation
import ProviderAPI

/// Percent-encoding of UTF-8 text with an allowed set of ASCII bytes, shared by request
/// templates and adapters so every URL Strata builds escapes the same way.
///
/// Foundation's `CharacterSet.urlPathAllowed` keeps `/`, `;` and `?`-adjacent characters a name
/// may hold, and `.alphanumerics` keeps every Unicode letter unencoded: neither is right for one
/// segment of a path. Encode each segment of a name with ``isSegment(_:)``:
///
/// ```swift
/// let path = item.path.segments.map { PercentEncoding.encode($0, allowing: PercentEncoding.isSegment) }.joined(separator: "/")
/// ```
public enum PercentEncoding {
    /// `text` with every UTF-8 byte that `allowed` refuses written as `%XX`.
    public static func encode(_ text: String, allowing allowed: (UInt8) -> Bool) -> String {
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if allowed(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// RFC 3986 unreserved characters: `A–Z a–z 0–9 - . _ ~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// What a value may keep in one path segment: unreserved plus `@ : ! $ ' ( ) * ,`.
    /// `/ ? # % & = + ;` and everything else are encoded.
    public static func isSegment(_ byte: UInt8) -> Bool {
        if isUnreserved(byte) { return true }
        return "@:!$'()*,".utf8.contains(byte)
    }

    /// What literal path text may keep: a segment's characters plus `/ ; = & +`.
    package static func isPathLiteral(_ byte: UInt8) -> Bool {
        isSegment(byte) || "/;=&+".utf8.contains(byte)
    }

    /// Form encoding for a query name or value: only unreserved characters stay, so `+` is `%2B`
    /// and a space `%20` (servers such as Nuxeo read a literal `+` as a space).
    public static func formEncode(_ text: String) -> String { encode(text, allowing: isUnreserved) }
}

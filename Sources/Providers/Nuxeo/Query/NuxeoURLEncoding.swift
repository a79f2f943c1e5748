import Foundation

/// Percent-encoding for Nuxeo URLs.
///
/// The servlet container decodes `+` in a query string as a space, and Foundation's
/// `URLComponents.queryItems` leaves `+` (and `&`, `=` inside values for some builders)
/// alone, so NXQL and other values are encoded here: every byte outside the RFC 3986
/// unreserved set (`A–Z a–z 0–9 - . _ ~`) becomes `%XX` of its UTF-8 encoding.
public enum NuxeoURLEncoding {
    /// A query-string name or value with everything but unreserved characters escaped (`+` → `%2B`, space → `%20`).
    public static func queryValue(_ value: String) -> String {
        encode(value, keeping: [])
    }

    /// One path segment (a document name): like ``queryValue(_:)``, so `/`, `?`, `#`, `%`, `;` are escaped.
    public static func pathSegment(_ segment: String) -> String {
        encode(segment, keeping: [])
    }

    /// An absolute repository path for `/api/v1/path{docPath}`: each segment encoded, `/` kept.
    public static func documentPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false)
            .map { pathSegment(String($0)) }
            .joined(separator: "/")
    }

    /// A whole query string (`query=…&pageSize=50`), names and values encoded, in the given order.
    public static func queryString(_ items: [(name: String, value: String)]) -> String {
        items.map { queryValue($0.name) + "=" + queryValue($0.value) }.joined(separator: "&")
    }

    private static func encode(_ text: String, keeping extra: Set<UInt8>) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || extra.contains(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}

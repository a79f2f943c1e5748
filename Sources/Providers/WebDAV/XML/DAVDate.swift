import Foundation
import HTTPProviderKit
import ProviderAPI

/// The dates WebDAV servers write in `getlastmodified`: RFC 1123 as RFC 4918 asks, but also
/// RFC 850, asctime (both read by `HTTPDate`) and ISO 8601 (chezdav), with or without fractional
/// seconds and with or without a zone (none is read as UTC).
enum DAVDate {
    /// A `getlastmodified` text given as its UTF-8 bytes; `nil` when no form fits.
    static func modified(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        if let date = HTTPDate.parse(utf8: bytes) { return date }
        return iso8601(String(decoding: bytes, as: UTF8.self))
    }

    /// A `getlastmodified` text; `nil` when no form fits.
    static func modified(_ text: String) -> Date? {
        HTTPDate.parse(text) ?? iso8601(text)
    }

    /// An ISO 8601 date-time (`2024-05-01T10:00:00`, with `.fff…` and `Z` or `±hh:mm` optional);
    /// `nil` for anything else or a date outside the years 1–9999.
    static func iso8601(_ text: String) -> Date? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard rest.utf8.count >= 19, rest.utf8.count <= 64 else { return nil }
        // The fraction is cut out (the formatter reads at most milliseconds on some platforms) and added back.
        var fraction = 0.0
        if let dot = rest.firstIndex(of: "."), dot > rest.index(rest.startIndex, offsetBy: 18) {
            let digitsEnd = rest[rest.index(after: dot)...].firstIndex { !$0.isASCII || !$0.isNumber } ?? rest.endIndex
            let digits = rest[rest.index(after: dot)..<digitsEnd]
            guard !digits.isEmpty, let value = Double("0." + digits.prefix(9)) else { return nil }
            fraction = value
            rest = rest[..<dot] + rest[digitsEnd...]
        }
        var plain = String(rest)
        if plain.count == 19 { plain += "Z" }
        if let spaceAt = plain.index(plain.startIndex, offsetBy: 10, limitedBy: plain.endIndex), spaceAt < plain.endIndex,
            plain[spaceAt] == " "
        {
            plain.replaceSubrange(spaceAt...spaceAt, with: "T")
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: plain)?.addingTimeInterval(fraction), UnixTime.contains(date) else { return nil }
        return date
    }
}

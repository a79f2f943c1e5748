import Foundation
import ProviderAPI

/// Parses and formats the date forms HTTP and WebDAV use: what an adapter reads from
/// `Last-Modified`, `Date` or a listing, and writes in `If-Modified-Since` or `X-OC-MTime`-style headers.
///
/// ```swift
/// let modified = response.headers.first(name: "Last-Modified").flatMap(HTTPDate.parse)
/// ```
public enum HTTPDate {
    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }

    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",  // RFC 1123
        "EEEE, dd-MMM-yy HH:mm:ss zzz",  // RFC 850
        "EEE MMM d HH:mm:ss yyyy",  // asctime
    ]

    /// Parses an RFC 1123, RFC 850 or asctime date; `nil` if none fits, or if the date lies
    /// outside the years 1–9999 (`UnixTime`), which a server may write but no date Strata makes may hold.
    public static func parse(_ string: String) -> Date? {
        parseAnyYear(string).flatMap { UnixTime.contains($0) ? $0 : nil }
    }

    private static func parseAnyYear(_ string: String) -> Date? {
        if let fast = parseRFC1123(string) { return fast }
        let trimmed = string.trimmingCharacters(in: .whitespaces)
        if trimmed.utf8.count != string.utf8.count, let fast = parseRFC1123(trimmed) { return fast }
        for format in formats {
            if let date = formatter(format).date(from: trimmed) { return date }
        }
        return nil
    }

    /// Formats `date` as RFC 1123 (`Sun, 06 Nov 1994 08:49:37 GMT`).
    public static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let day = days[((c.weekday ?? 1) - 1) % 7]
        let month = months[((c.month ?? 1) - 1) % 12]
        func two(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
        return "\(day), \(two(c.day)) \(month) \(c.year ?? 1970) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) GMT"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// ``parse(_:)`` of a date given as its UTF-8 bytes, for a parser that holds the text as bytes:
    /// the RFC 1123 form every WebDAV server sends is read from them without making a `String`
    /// (a listing reads one per entry); any other text goes through ``parse(_:)``, so both
    /// answer the same for every input, including bytes that are not UTF-8.
    package static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        // The fast path checks every byte but the day name's: with those ASCII too, a date it
        // reads is all ASCII, the same bytes `parse(_:)` would read.
        if bytes.count >= 3, bytes[0] < 0x80, bytes[1] < 0x80, bytes[2] < 0x80, let fast = parseRFC1123(bytes) {
            return UnixTime.contains(fast) ? fast : nil
        }
        return parse(String(decoding: bytes, as: UTF8.self))
    }

    /// A fast path for the RFC 1123 form that every WebDAV server sends, read byte by byte
    /// (a listing parses one per entry).
    static func parseRFC1123(_ s: String) -> Date? {
        var text = s
        return text.withUTF8 { parseRFC1123($0) }
    }

    /// ``parseRFC1123(_:)-(String)`` of UTF-8 bytes.
    static func parseRFC1123(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        // "Sun, 06 Nov 1994 08:49:37 GMT" (a one-digit day and a longer year are accepted too).
        var index = 0
        func number(maxDigits: Int) -> Int? {
            var value = 0
            let start = index
            while index < bytes.count, index - start < maxDigits, (0x30...0x39).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            return index > start ? value : nil
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard bytes.count >= 28, bytes[3] == UInt8(ascii: ",") else { return nil }
        index = 4
        guard expect(0x20), let day = number(maxDigits: 2), expect(0x20), index + 4 <= bytes.count else { return nil }
        let monthKey = (bytes[index], bytes[index + 1], bytes[index + 2])
        index += 3
        guard expect(0x20), let year = number(maxDigits: 6), expect(0x20),
            let hour = number(maxDigits: 2), expect(UInt8(ascii: ":")), let minute = number(maxDigits: 2),
            expect(UInt8(ascii: ":")), let second = number(maxDigits: 2), expect(0x20), bytes.count - index == 3
        else { return nil }
        let zone = (bytes[index], bytes[index + 1], bytes[index + 2])
        guard zone == (0x47, 0x4D, 0x54) || zone == (0x55, 0x54, 0x43) else { return nil }  // GMT, UTC
        guard let month = monthKeys.firstIndex(where: { $0 == monthKey }).map({ $0 + 1 }),
            (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        // Days from civil (Howard Hinnant's algorithm), no calendar allocation.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        let seconds = days * 86400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static let monthKeys: [(UInt8, UInt8, UInt8)] = months.map { name in
        let bytes = Array(name.utf8)
        return (bytes[0], bytes[1], bytes[2])
    }

    /// Parses an ISO 8601 date with or without fractional seconds.
    package static func parseISO8601(_ string: String) -> Date? {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withFraction.date(from: string) { return date }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        return plain.date(from: string)
    }
}

import Foundation
import ProviderAPI
import HTTPProviderKit

/// The lenient date reader for every date form Nuxeo servers send.
///
/// Accepts ISO-8601 strings with 0 to 9 fraction digits (`2015-10-13T10:21:46.12Z`,
/// `2011-10-23T12:00:00.000Z`), a `Z` or `±hh:mm`/`±hhmm` offset or no zone (read as UTC),
/// a space instead of `T`, a bare date (`2024-01-01`), and epoch milliseconds as a JSON
/// number or a numeric string (Nuxeo Drive, audit entries). A time outside the years 1–9999
/// (`UnixTime`) is not a date.
package enum NuxeoDateParser {
    /// The date in `value`, or `nil` when it is null or not a date.
    package static func date(from value: JSONValue) -> Date? {
        switch value {
        case .integer(let millis): return UnixTime.date(milliseconds: Double(millis))
        case .double(let millis): return UnixTime.date(milliseconds: millis)
        case .string(let text): return date(from: text)
        default: return nil
        }
    }

    /// The date in `text`, or `nil` when it is not a date.
    package static func date(from text: String) -> Date? {
        // Foundation's trim (an NSString round trip) only where an end may be white space: the
        // only ASCII members of `.whitespaces` are space and tab.
        let needsTrim = text.utf8.first.map(mayBeSpace) ?? false || text.utf8.last.map(mayBeSpace) ?? false
        let trimmed = needsTrim ? text.trimmingCharacters(in: .whitespaces) : text
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), trimmed.utf8.count >= 9,
           let millis = Int64(trimmed) {
            return UnixTime.date(milliseconds: Double(millis))
        }
        // A year 0000 is written by the grammar, but lies outside the dates Strata makes.
        // Read in place (a native string's bytes are contiguous): no copy of each date.
        var text = trimmed
        return text.withUTF8 { iso8601($0) }.flatMap { UnixTime.contains($0) ? $0 : nil }
    }

    /// Formats `date` as Nuxeo's own writer does: `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC.
    package static func string(from date: Date) -> String {
        let parts = components(of: date, in: TimeZone(secondsFromGMT: 0) ?? .current)
        return parts.isoDate + "T" + parts.isoTime + "Z"
    }

    // MARK: - Parsing

    /// Whether `byte` may start or end white space: a space, a tab, or part of a character that is not ASCII.
    private static func mayBeSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte >= 0x80
    }

    private static func iso8601(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
              (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var hour = 0, minute = 0, second = 0
        var nanos = 0
        var offsetSeconds = 0
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: " ") else { return nil }
            index += 1
            guard let h = digits(2), expect(":"), let m = digits(2), h < 24, m < 60 else { return nil }
            hour = h
            minute = m
            if expect(":") {
                guard let s = digits(2), s < 61 else { return nil }
                second = s
                if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    var count = 0
                    var value = 0
                    while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                        if count < 9 { value = value * 10 + Int(bytes[index] - 48) }
                        count += 1
                        index += 1
                    }
                    guard count > 0 else { return nil }
                    for _ in min(count, 9)..<9 { value *= 10 }
                    nanos = value
                }
            }
            if index < bytes.count {
                if bytes[index] == UInt8(ascii: "Z") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                    index += 1
                    guard let oh = digits(2), oh < 24 else { return nil }
                    _ = expect(":")
                    let om = digits(2) ?? 0
                    guard om < 60 else { return nil }
                    offsetSeconds = sign * (oh * 3600 + om * 60)
                } else {
                    return nil
                }
            }
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanos) / 1_000_000_000)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    // MARK: - Formatting

    struct Parts {
        var isoDate: String
        var isoTime: String
    }

    /// `yyyy-MM-dd` and `HH:mm:ss.SSS` of `date` in `zone`.
    static func components(of date: Date, in zone: TimeZone) -> Parts {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        // Round to the millisecond first, so 0.76 s written as 0.7599999 still prints .760.
        // A date outside the years 1–9999 (never one a parser made) is written at the nearest end.
        let seconds = min(max(date.timeIntervalSince1970.isNaN ? 0 : date.timeIntervalSince1970, Double(UnixTime.earliest)), Double(UnixTime.latest))
        let totalMillis = (seconds * 1000).rounded()
        let wholeSeconds = (totalMillis / 1000).rounded(.down)
        let millis = min(999, max(0, Int(totalMillis - wholeSeconds * 1000)))
        let c = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: wholeSeconds))
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return Parts(
            isoDate: "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))",
            isoTime: "\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2)).\(pad(millis, 3))")
    }
}

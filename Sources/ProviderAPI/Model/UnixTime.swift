import Foundation

/// Checked conversions between Unix times (seconds since 1970) and `Date`s, for times that come
/// from a server or a user: a non-finite or absurd number never reaches an integer conversion.
///
/// The accepted range is the years 0001 to 9999 (what RFC 3339 can write), so that every date
/// an adapter makes can also be printed and encoded.
package enum UnixTime {
    /// The earliest accepted time: 0001-01-01T00:00:00Z.
    package static let earliest: Int64 = -62_135_596_800
    /// The latest accepted time: 9999-12-31T23:59:59Z.
    package static let latest: Int64 = 253_402_300_799

    /// The date `seconds` after 1970, or `nil` when `seconds` is NaN, infinite or outside
    /// ``earliest`` … ``latest``.
    package static func date(seconds: Double) -> Date? {
        guard seconds.isFinite, seconds >= Double(earliest), seconds < Double(latest) + 1 else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// The date `milliseconds` after 1970, or `nil` when outside the accepted range.
    package static func date(milliseconds: Double) -> Date? {
        guard milliseconds.isFinite else { return nil }
        return date(seconds: milliseconds / 1000)
    }

    /// The date in `text`, a decimal number of seconds after 1970 (such as `1795315138` or
    /// `1795315138.25`), or `nil` when it is not a number, not finite or outside the accepted range.
    package static func date(parsing text: some StringProtocol) -> Date? {
        Double(text.trimmingCharacters(in: .whitespaces)).flatMap { date(seconds: $0) }
    }

    /// The whole seconds of `date` after 1970, rounded down and clamped into ``earliest`` … ``latest``:
    /// never traps, whatever the `Date`.
    package static func clampedSeconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard !seconds.isNaN else { return 0 }
        if seconds <= Double(earliest) { return earliest }
        if seconds >= Double(latest) { return latest }
        return Int64(seconds)
    }

    /// The whole milliseconds of `date` after 1970, rounded, with the date clamped into
    /// ``earliest`` … ``latest``: never traps, whatever the `Date`.
    package static func clampedMilliseconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970
        guard !seconds.isNaN else { return 0 }
        let clamped = min(max(seconds, Double(earliest)), Double(latest) + 0.999)
        return Int64((clamped * 1000).rounded())
    }

    /// Whether `date` lies in the accepted range.
    package static func contains(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSince1970
        return seconds.isFinite && seconds >= Double(earliest) && seconds < Double(latest) + 1
    }
}

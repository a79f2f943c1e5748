import Foundation

/// Date writing and reading in the forms Nuxeo uses (W3C with 3 fraction
/// digits and `Z`, NXQL `TIMESTAMP`/`DATE` literals, RFC 1123 for HTTP).
enum DateCodec {
    /// Current time in epoch milliseconds.
    static func nowMillis() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    private static func components(_ millis: Int64) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let date = Date(timeIntervalSince1970: TimeInterval(millis) / 1000)
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
    }

    /// `2024-01-01T10:00:00.000Z`
    static func w3c(_ millis: Int64) -> String {
        let c = components(millis)
        let fraction = Int(((millis % 1000) + 1000) % 1000)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
            c.year ?? 1970, c.month ?? 1, c.day ?? 1, c.hour ?? 0, c.minute ?? 0, c.second ?? 0, fraction
        )
    }

    /// `Mon, 01 Jan 2024 10:00:00 GMT`
    static func http(_ millis: Int64) -> String {
        let c = components(millis)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return String(
            format: "%@, %02d %@ %04d %02d:%02d:%02d GMT",
            days[((c.weekday ?? 1) - 1) % 7], c.day ?? 1, months[((c.month ?? 1) - 1) % 12],
            c.year ?? 1970, c.hour ?? 0, c.minute ?? 0, c.second ?? 0
        )
    }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DD[T ]hh:mm[:ss[.fff…]][Z|±hh:mm]` into epoch milliseconds (UTC when no zone).
    static func parse(_ text: String) -> Int64? {
        let s = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        var i = 0
        func number(_ count: Int) -> Int? {
            guard i + count <= s.count else { return nil }
            var value = 0
            for b in s[i..<i + count] {
                guard (48...57).contains(b) else { return nil }
                value = value * 10 + Int(b - 48)
            }
            i += count
            return value
        }
        func eat(_ c: Character) -> Bool {
            guard i < s.count, s[i] == c.asciiValue else { return false }
            i += 1
            return true
        }
        guard let year = number(4), eat("-"), let month = number(2), eat("-"), let day = number(2) else { return nil }
        var hour = 0, minute = 0, second = 0, millis = 0, offsetMinutes = 0
        if eat("T") || eat(" ") {
            guard let h = number(2), eat(":"), let m = number(2) else { return nil }
            hour = h; minute = m
            if eat(":") {
                guard let sec = number(2) else { return nil }
                second = sec
                if eat(".") {
                    var digits = 0, fraction = 0
                    while i < s.count, (48...57).contains(s[i]) {
                        if digits < 3 { fraction = fraction * 10 + Int(s[i] - 48) }
                        digits += 1; i += 1
                    }
                    guard digits > 0 else { return nil }
                    for _ in digits..<max(digits, 3) { fraction *= 10 }
                    millis = fraction
                }
            }
            if eat("Z") {
            } else if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
                let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard let oh = number(2) else { return nil }
                _ = eat(":")
                let om = number(2) ?? 0
                offsetMinutes = sign * (oh * 60 + om)
            }
        }
        guard i == s.count, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let comps = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: comps) else { return nil }
        return Int64(date.timeIntervalSince1970) * 1000 + Int64(millis) - Int64(offsetMinutes) * 60_000
    }
}

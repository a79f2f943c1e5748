import Foundation

/// Wall-clock helpers in Unix seconds.
enum UnixTime {
    static var now: Int64 { Int64(Date().timeIntervalSince1970) }

    /// `Sun, 22 Nov 2026 02:39:46 GMT`
    static func http(_ seconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// Pydio's relative date: `today at 02:39`, `yesterday at 02:39`, else `2026/11/22 at 02:39` (UTC).
    static func relative(_ seconds: Int64, now: Int64) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let today = Date(timeIntervalSince1970: TimeInterval(now))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let hour = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: date), to: calendar.startOfDay(for: today)).day ?? 0
        switch days {
        case 0: return "today at \(hour)"
        case 1: return "yesterday at \(hour)"
        default: return String(format: "%04d/%02d/%02d at %@", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1, hour)
        }
    }

    /// `2026/12/01 00:34` (UTC): a link's `expire_time`.
    static func minute(_ seconds: Int64) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return String(format: "%04d/%02d/%02d %02d:%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0)
    }
}

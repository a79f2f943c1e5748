import Foundation

/// Durations as messages and transports need them.
extension Duration {
    /// The duration in nanoseconds, clamped to `Int64`.
    package var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        if seconds > Int64.max / 1_000_000_000 - 1 { return Int64.max }
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration for messages: `30 s`, `1.5 s`, or `250 ms` below a second.
    package var spokenLength: String {
        let millis = nanosecondsClamped / 1_000_000
        if millis < 1000 { return "\(millis) ms" }
        if millis % 1000 == 0 { return "\(millis / 1000) s" }
        return String(format: "%.1f s", Double(millis) / 1000)
    }

    /// Seconds with one decimal, for retry notices: `0.4 s`.
    package var spokenSeconds: String {
        String(format: "%.1f s", Double(nanosecondsClamped) / 1e9)
    }
}

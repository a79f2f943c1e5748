import ArgumentParser
import Foundation

/// Dates on the command line: `YYYY-MM-DD` (midnight UTC) or a full ISO 8601 time
/// such as `2025-03-01T12:00:00Z`.
enum DateArgument {
    /// The instant `text` names.
    ///
    /// - Throws: `ValidationError` naming `what` when `text` is neither form.
    static func parse(_ text: String, what: String) throws -> Date {
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        day.timeZone = TimeZone(identifier: "UTC")
        if text.count == 10, let date = day.date(from: text) { return date }
        let full = ISO8601DateFormatter()
        full.formatOptions = [.withInternetDateTime]
        if let date = full.date(from: text) { return date }
        full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = full.date(from: text) { return date }
        throw ValidationError("\(what) takes a date YYYY-MM-DD or an ISO 8601 time, not '\(text)'")
    }
}

import Foundation
import ProviderAPI

/// Prints items and results as text or JSON.
enum Output {
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var data = try encoder.encode(value)
        data.append(contentsOf: "\n".utf8)
        standardOutput(data)
    }

    static func line(_ text: String) {
        standardOutput(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        standardError(Data((text + "\n").utf8))
    }

    /// Writes to stdout; when the reader has gone (`strata ls … | head`, where SIGPIPE is
    /// ignored), exits quietly with the status a SIGPIPE would give instead of trapping.
    static func standardOutput(_ data: Data) {
        do { try FileHandle.standardOutput.write(contentsOf: data) } catch { exit(128 + SIGPIPE) }
    }

    /// Writes to stderr, ignoring a closed stream.
    static func standardError(_ data: Data) {
        try? FileHandle.standardError.write(contentsOf: data)
    }

    static func size(_ bytes: Int64?) -> String {
        guard let bytes else { return "-" }
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        guard unit > 0 else { return "\(bytes) B" }
        // One decimal, as "%.1f", without String(format:), which is slow on Linux.
        let tenths = Int((value * 10).rounded(.toNearestOrEven))
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// `date` as RFC 3339 in UTC (`2026-01-31T09:05:00Z`), or `-`; formatted by hand, as
    /// `ls` formats one per item and `ISO8601DateFormatter` costs tens of microseconds each.
    static func date(_ date: Date?) -> String {
        guard let date else { return "-" }
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "-" }
        var text = ""
        text.reserveCapacity(20)
        func digits(_ value: Int32, _ width: Int) {
            let string = String(value)
            if string.count < width { text += String(repeating: "0", count: width - string.count) }
            text += string
        }
        digits(parts.tm_year + 1900, 4)
        text += "-"
        digits(parts.tm_mon + 1, 2)
        text += "-"
        digits(parts.tm_mday, 2)
        text += "T"
        digits(parts.tm_hour, 2)
        text += ":"
        digits(parts.tm_min, 2)
        text += ":"
        digits(parts.tm_sec, 2)
        text += "Z"
        return text
    }

    /// Items as `ls` prints them: a JSON array of items, or ``table(_:showingPaths:)``.
    static func items(_ items: [Item], json: Bool, showingPaths: Bool = false) throws {
        if json { try Output.json(items) } else { table(items, showingPaths: showingPaths) }
    }

    /// One line per item: kind, size, modified time, and name (or, for search results from
    /// several folders, the path).
    /// Lines are gathered and written in large blocks, not one system call per item.
    static func table(_ items: [Item], showingPaths: Bool = false) {
        var block = ""
        block.reserveCapacity(min(items.count, 4096) * 64)
        for item in items {
            let label = showingPaths ? item.path.description : item.name
            block += item.isFolder ? "d " : "- "
            block += (item.isFolder ? "-" : size(item.size)).leftPadded(10)
            block += "  "
            block += date(item.modified)
            block += "  "
            block += label
            block += item.isFolder ? "/\n" : "\n"
            if block.utf8.count >= 256 << 10 {
                standardOutput(Data(block.utf8))
                block.removeAll(keepingCapacity: true)
            }
        }
        if !block.isEmpty { standardOutput(Data(block.utf8)) }
    }

    static func describe(_ item: Item) {
        line("path:     \(item.path)")
        line("kind:     \(item.kind.rawValue)")
        if let size = item.size { line("size:     \(size) (\(Output.size(size)))") }
        if let modified = item.modified { line("modified: \(date(modified))") }
        if let etag = item.etag { line("etag:     \(etag)") }
        if let mime = item.mimeType { line("type:     \(mime)") }
        if item.id != item.path.description { line("id:       \(item.id)") }
        for (algorithm, value) in item.digests.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            line("\(algorithm.rawValue):\(String(repeating: " ", count: max(1, 9 - algorithm.rawValue.count)))\(value)")
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

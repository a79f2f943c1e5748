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
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }

    static func date(_ date: Date?) -> String {
        guard let date else { return "-" }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// Items as `ls` prints them: a JSON array of items, or ``table(_:showingPaths:)``.
    static func items(_ items: [Item], json: Bool, showingPaths: Bool = false) throws {
        if json { try Output.json(items) } else { table(items, showingPaths: showingPaths) }
    }

    /// One line per item: kind, size, modified time, and name (or, for search results from
    /// several folders, the path).
    static func table(_ items: [Item], showingPaths: Bool = false) {
        for item in items {
            let kind = item.isFolder ? "d" : "-"
            let label = showingPaths ? item.path.description : item.name
            let name = item.isFolder ? label + "/" : label
            let size = item.isFolder ? "-" : size(item.size)
            line("\(kind) \(size.leftPadded(10))  \(date(item.modified))  \(name)")
        }
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

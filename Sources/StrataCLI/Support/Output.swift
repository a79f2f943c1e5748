import Foundation
import ProviderAPI
import SharedCache

/// Prints items and results as text or JSON.
///
/// Text output escapes control and format characters (``TerminalText``): ``line(_:)``,
/// ``lines(_:)``, ``error(_:)`` and the item table escape what they print; only ``rawLine(_:)``
/// prints as is, for lines whose parts were escaped already. JSON stays exact.
enum Output {
    /// The encoder of every JSON output: pretty, sorted keys, dates as RFC 3339 in UTC
    /// (a date outside the years 1–9999, which no format can write, as `null`).
    static func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            if UnixTime.contains(date) { try container.encode(Output.date(date)) } else { try container.encodeNil() }
        }
        return encoder
    }

    static func json<T: Encodable>(_ value: T) throws {
        var data = try jsonEncoder().encode(value)
        data.append(contentsOf: "\n".utf8)
        standardOutput(data)
    }

    /// Prints one line, escaped.
    static func line(_ text: String) {
        standardOutput(Data((TerminalText.escape(text) + "\n").utf8))
    }

    /// Prints text of several lines, each escaped.
    static func lines(_ text: String) {
        let escaped = text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escape(String($0)) }
        standardOutput(Data((escaped.joined(separator: "\n") + "\n").utf8))
    }

    /// Prints a line as it is: every server-controlled part of it must be escaped already.
    static func rawLine(_ text: String) {
        standardOutput(Data((text + "\n").utf8))
    }

    /// Prints one line on stderr, escaped.
    static func error(_ text: String) {
        standardError(Data((TerminalText.escape(text) + "\n").utf8))
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

    /// A size as `ls` shows it (``TableLine/appendSize(_:to:)``).
    static func size(_ bytes: Int64?) -> String {
        var text: [UInt8] = []
        TableLine.appendSize(bytes, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// `date` as RFC 3339 in UTC (`2026-01-31T09:05:00Z`), or `-` (``TableLine/appendDate(_:to:)``).
    static func date(_ date: Date?) -> String {
        var text: [UInt8] = []
        TableLine.appendDate(date, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Items as `ls` prints them: a JSON array of items, or ``table(_:showingPaths:)``.
    static func items(_ items: [Item], json: Bool, showingPaths: Bool = false) throws {
        if json { try Output.json(items) } else { table(items, showingPaths: showingPaths) }
    }

    /// One page of items after another, as `ls` streams them: table lines as each page comes,
    /// or one JSON array written an element at a time (memory stays flat in the number of items).
    ///
    /// The JSON array is closed by ``finish()`` only: when the listing fails half-way, the output
    /// is left unterminated, so that no JSON reader takes a partial listing for a whole one.
    struct ItemStream {
        let json: Bool
        let showingPaths: Bool
        private(set) var count = 0
        private let encoder = Output.jsonEncoder()
        /// Where the text goes; standard output unless a test captures it.
        var write: (Data) -> Void = { Output.standardOutput($0) }

        init(json: Bool, showingPaths: Bool = false) {
            self.json = json
            self.showingPaths = showingPaths
        }

        /// Prints `items`, the next page.
        mutating func append(_ items: [Item]) throws {
            guard !items.isEmpty else { return }
            guard json else {
                count += items.count
                Output.table(items, showingPaths: showingPaths, write: write)
                return
            }
            var block = Data()
            for item in items {
                block.append(contentsOf: (count == 0 ? "[\n" : ",\n").utf8)
                count += 1
                // Each element as the whole array's encoder would indent it: two spaces deeper.
                let element = try encoder.encode(item)
                var lineStart = true
                for byte in element {
                    // Empty lines (inside `{}` or `[]`) stay empty, as the encoder writes them.
                    if lineStart, byte != 0x0A { block.append(contentsOf: [0x20, 0x20]) }
                    block.append(byte)
                    lineStart = byte == 0x0A
                }
                if block.count >= 256 << 10 {
                    write(block)
                    block.removeAll(keepingCapacity: true)
                }
            }
            if !block.isEmpty { write(block) }
        }

        /// Ends the output: closes the JSON array (`[]` when there was no item).
        func finish() {
            guard json else { return }
            write(Data((count == 0 ? "[]\n" : "\n]\n").utf8))
        }
    }

    /// One line per item: kind, size, modified time, and name (or, for search results from
    /// several folders, the path); an item an offline write made or changed is marked `(pending #ID)`.
    /// Lines are gathered and written in large blocks, not one system call per item.
    static func table(_ items: [Item], showingPaths: Bool = false, write: (Data) -> Void = { Output.standardOutput($0) }) {
        var block: [UInt8] = []
        block.reserveCapacity(min(items.count, 4096) * 64)
        for item in items {
            TableLine.append(item, showingPaths: showingPaths, to: &block)
            if block.count >= 256 << 10 {
                write(Data(block))
                block.removeAll(keepingCapacity: true)
            }
        }
        if !block.isEmpty { write(Data(block)) }
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

import Foundation
import ProviderAPI
import SharedCache
import Testing

@testable import StrataCLI

/// `TableLine` writes the same bytes as the string-built `ls` line it replaced.
@Suite("ls table lines as bytes")
struct TableLineTests {
    /// The line as `Output.table` built it from strings before `TableLine` (sizes and dates too).
    private func reference(_ item: Item, showingPaths: Bool) -> String {
        func padded(_ text: String) -> String {
            text.count >= 10 ? text : String(repeating: " ", count: 10 - text.count) + text
        }
        var line = item.isFolder ? "d " : "- "
        line += padded(item.isFolder ? "-" : referenceSize(item.size))
        line += "  " + referenceDate(item.modified) + "  "
        line += TerminalText.escape(showingPaths ? item.path.description : item.name)
        line += item.isFolder ? "/" : ""
        if item.properties[CacheMarks.pending] != nil {
            line += "  (pending" + (item.properties[CacheMarks.journalEntry].map { " #" + TerminalText.escape($0) } ?? "") + ")"
        }
        return line + "\n"
    }

    /// Sizes as `Output.size` wrote them from strings before `TableLine`.
    private func referenceSize(_ bytes: Int64?) -> String {
        guard let bytes else { return "-" }
        let (value, unit) = ReferenceSize.scaled(bytes)
        guard unit != "B" else { return "\(bytes) B" }
        let tenths = Int((value * 10).rounded(.toNearestOrEven))
        return "\(tenths / 10).\(tenths % 10) \(unit)"
    }

    /// Dates as `Output.date` wrote them from strings before `TableLine`.
    private func referenceDate(_ date: Date?) -> String {
        guard let date, UnixTime.contains(date) else { return "-" }
        var seconds = time_t(UnixTime.clampedSeconds(date))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "-" }
        func digits(_ value: Int32, _ width: Int) -> String {
            let string = String(value)
            return string.count < width ? String(repeating: "0", count: width - string.count) + string : string
        }
        return digits(parts.tm_year + 1900, 4) + "-" + digits(parts.tm_mon + 1, 2) + "-" + digits(parts.tm_mday, 2) + "T"
            + digits(parts.tm_hour, 2) + ":" + digits(parts.tm_min, 2) + ":" + digits(parts.tm_sec, 2) + "Z"
    }

    private func bytes(_ item: Item, showingPaths: Bool) -> String {
        var line: [UInt8] = []
        TableLine.append(item, showingPaths: showingPaths, to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    @Test("sizes as the string-built Output.size wrote them", arguments: [
        Int64.min, -1_048_576, -5, -1, 0, 1, 9, 10, 999, 1023, 1024, 1075, 1280, 1535, 1536, 10_240, 1_048_575, 1_048_576,
        5_000_000_000, 1 << 40, 1 << 50, 999_999_999_999_999, Int64.max,
    ] as [Int64])
    func sizes(_ size: Int64) {
        var line: [UInt8] = []
        TableLine.appendSize(size, to: &line)
        #expect(String(decoding: line, as: UTF8.self) == referenceSize(size))
        #expect(Output.size(size) == referenceSize(size))
    }

    @Test("dates as the string-built Output.date wrote them", arguments: [
        0, 1, 59, 86_399, 951_782_400, 1_700_000_000.75, 4_102_444_799, -1, -86_401, -62_135_596_800, 253_402_300_799,
        253_402_300_800, -62_135_596_801, Date.distantPast.timeIntervalSince1970, Date.distantFuture.timeIntervalSince1970,
        .infinity, -.infinity, .nan,
    ] as [Double])
    func dates(_ seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        var line: [UInt8] = []
        TableLine.appendDate(date, to: &line)
        #expect(String(decoding: line, as: UTF8.self) == referenceDate(date))
        #expect(Output.date(date) == referenceDate(date))
        line.removeAll()
        TableLine.appendDate(nil, to: &line)
        #expect(line == Array("-".utf8))
    }

    @Test("whole lines: files, folders, no size or date, names to escape, paths, pending writes")
    func lines() throws {
        var pending = Item(path: ItemPath("/a/queued.txt"), kind: .file, size: 12)
        pending.properties[CacheMarks.pending] = "1"
        pending.properties[CacheMarks.journalEntry] = "42\u{1B}"
        var pendingNoEntry = Item(path: ItemPath("/a/new"), kind: .folder)
        pendingNoEntry.properties[CacheMarks.pending] = "1"
        let items: [Item] = [
            Item(path: ItemPath("/a/file.txt"), kind: .file, size: 2_345, modified: Date(timeIntervalSince1970: 1_700_000_000)),
            Item(path: ItemPath("/a/dir"), kind: .folder, size: 99, modified: Date(timeIntervalSince1970: 0)),
            Item(path: ItemPath("/a/none"), kind: .file),
            Item(path: ItemPath("/a/big"), kind: .file, size: Int64.max),
            Item(path: ItemPath("/a/tab\there\u{7}\u{202E}évé"), kind: .file, size: 1),
            Item(path: ItemPath("/a/back\\slash"), kind: .folder),
            pending, pendingNoEntry,
        ]
        for item in items {
            for showingPaths in [false, true] {
                #expect(bytes(item, showingPaths: showingPaths) == reference(item, showingPaths: showingPaths))
            }
        }
        // The table is the lines, in order, in blocks.
        var written = Data()
        Output.table(items + items, write: { written.append($0) })
        #expect(String(decoding: written, as: UTF8.self) == (items + items).map { reference($0, showingPaths: false) }.joined())
    }

    @Test("a table larger than one block is written in several, whole")
    func blocks() throws {
        let items = try (0..<9_000).map { Item(path: try ItemPath("/f/entry-\($0).txt"), kind: .file, size: Int64($0)) }
        var blocks: [Data] = []
        Output.table(items, write: { blocks.append($0) })
        #expect(blocks.count > 1)
        #expect(String(decoding: blocks.reduce(Data(), +), as: UTF8.self) == items.map { reference($0, showingPaths: false) }.joined())
    }
}

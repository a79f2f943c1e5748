import Foundation
import ProviderAPI
import ProviderKit
import SharedCache

/// The lines of `strata ls`'s table (``Output/table(_:showingPaths:write:)``) written as bytes,
/// without a `String` made, grown and padded per column of every item (12 ms of the CLI's
/// ~85 ms for 10,000 entries, measured with `perf`); ``Output/size(_:)`` and ``Output/date(_:)``
/// are these bytes as strings.
enum TableLine {
    /// Appends `item`'s line: kind, size right-aligned in 10 columns, modified time, the name (or
    /// the path) escaped for a terminal, `/` after a folder, a pending offline write's mark.
    static func append(_ item: Item, showingPaths: Bool, to line: inout [UInt8]) {
        let folder = item.isFolder
        line.append(folder ? UInt8(ascii: "d") : UInt8(ascii: "-"))
        line.append(UInt8(ascii: " "))
        if folder {
            padded(to: 10, &line) { $0.append(UInt8(ascii: "-")) }
        } else {
            padded(to: 10, &line) { appendSize(item.size, to: &$0) }
        }
        line.append(UInt8(ascii: " "))
        line.append(UInt8(ascii: " "))
        appendDate(item.modified, to: &line)
        line.append(UInt8(ascii: " "))
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: TerminalText.escape(showingPaths ? item.path.description : item.name).utf8)
        if folder { line.append(UInt8(ascii: "/")) }
        if item.properties[CacheMarks.pending] != nil {
            // An offline write waiting in the sync journal (strata pending, strata replay).
            line.append(contentsOf: "  (pending".utf8)
            if let entry = item.properties[CacheMarks.journalEntry] {
                line.append(contentsOf: " #".utf8)
                line.append(contentsOf: TerminalText.escape(entry).utf8)
            }
            line.append(UInt8(ascii: ")"))
        }
        line.append(UInt8(ascii: "\n"))
    }

    /// A size as `ls` shows it: `-`, `N B`, or one decimal (as `%.1f`) and a binary unit (`1.5 KiB`).
    static func appendSize(_ bytes: Int64?, to line: inout [UInt8]) {
        guard let bytes else {
            line.append(UInt8(ascii: "-"))
            return
        }
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        guard unit > 0 else {
            appendDecimal(bytes, to: &line)
            line.append(contentsOf: " B".utf8)
            return
        }
        let tenths = Int64((value * 10).rounded(.toNearestOrEven))
        appendDecimal(tenths / 10, to: &line)
        line.append(UInt8(ascii: "."))
        appendDecimal(tenths % 10, to: &line)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: units[unit].utf8)
    }

    /// A date as `ls` shows it: RFC 3339 in UTC (`2026-01-31T09:05:00Z`), or `-`; formatted by
    /// hand, as `ISO8601DateFormatter` costs tens of microseconds each. Any `Date` is accepted: one
    /// outside the years 1–9999 (``UnixTime``), which RFC 3339 cannot write, is `-` too.
    static func appendDate(_ date: Date?, to line: inout [UInt8]) {
        guard let date, UnixTime.contains(date) else {
            line.append(UInt8(ascii: "-"))
            return
        }
        var seconds = time_t(UnixTime.clampedSeconds(date))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else {
            line.append(UInt8(ascii: "-"))
            return
        }
        appendDecimal(Int64(parts.tm_year) + 1900, width: 4, to: &line)
        line.append(UInt8(ascii: "-"))
        appendDecimal(Int64(parts.tm_mon) + 1, width: 2, to: &line)
        line.append(UInt8(ascii: "-"))
        appendDecimal(Int64(parts.tm_mday), width: 2, to: &line)
        line.append(UInt8(ascii: "T"))
        appendDecimal(Int64(parts.tm_hour), width: 2, to: &line)
        line.append(UInt8(ascii: ":"))
        appendDecimal(Int64(parts.tm_min), width: 2, to: &line)
        line.append(UInt8(ascii: ":"))
        appendDecimal(Int64(parts.tm_sec), width: 2, to: &line)
        line.append(UInt8(ascii: "Z"))
    }

    private static let units = ["B", "KiB", "MiB", "GiB", "TiB"]

    /// What `write` appends, after as many spaces as make it `width` bytes (none when it is wider).
    private static func padded(to width: Int, _ line: inout [UInt8], _ write: (inout [UInt8]) -> Void) {
        let start = line.count
        write(&line)
        let written = line.count - start
        guard written < width else { return }
        line.insert(contentsOf: repeatElement(UInt8(ascii: " "), count: width - written), at: start)
    }

    /// `value` in decimal (with a `-` when negative), as `String(value)` with zeros on its left
    /// up to `width` characters: written backwards, then turned around in place.
    private static func appendDecimal(_ value: Int64, width: Int = 1, to line: inout [UInt8]) {
        let start = line.count
        var rest = value.magnitude
        repeat {
            line.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        if value < 0 { line.append(UInt8(ascii: "-")) }
        while line.count - start < width { line.append(UInt8(ascii: "0")) }
        line.reverseTail(from: start)
    }
}

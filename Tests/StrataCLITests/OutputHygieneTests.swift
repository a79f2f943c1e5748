import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import Testing

@testable import StrataCLI

@Suite("Output hygiene: escaping, dates, targets, errors")
struct OutputHygieneTests {
    @Test("control and format characters are escaped as ls -b does", arguments: [
        ("plain name.txt", "plain name.txt"),
        ("a\u{1B}]0;owned\u{07}b", "a\\e]0;owned\\ab"),
        ("line\nforged  -  line", "line\\nforged  -  line"),
        ("cr\rtab\tdel\u{7F}nul\u{0}", "cr\\rtab\\tdel\\x7fnul\\x00"),
        ("back\\slash", "back\\\\slash"),
        ("c1\u{85}\u{9B}2J", "c1\\u{85}\\u{9b}2J"),
        ("evil\u{202E}txt.exe", "evil\\u{202e}txt.exe"),
        ("zero\u{200B}width\u{FEFF}", "zero\\u{200b}width\\u{feff}"),
        ("sep\u{2028}x", "sep\\u{2028}x"),
        ("caf\u{E9} \u{65}\u{301} 日本 👨‍👩‍👧 🏴󠁧󠁢󠁳󠁣󠁴󠁿", "caf\u{E9} \u{65}\u{301} 日本 👨‍👩‍👧 🏴󠁧󠁢󠁳󠁣󠁴󠁿"),
    ])
    func escaping(_ raw: String, _ escaped: String) {
        #expect(TerminalText.escape(raw) == escaped)
    }

    @Test("an escaped name has no control character left", arguments: Array(0..<0x100).map { UInt32($0) } + [0x202A, 0x2066, 0x061C])
    func noControlLeft(_ value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let escaped = TerminalText.escape("a" + String(Character(scalar)) + "b")
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.properties.generalCategory == .format })
    }

    // Seconds rather than Dates as arguments: Date's own description traps on a non-finite time.
    @Test("any Date prints without trapping", arguments: [
        Date.distantFuture.timeIntervalSince1970, Date.distantPast.timeIntervalSince1970, 1e300, -1e300,
        .infinity, -.infinity, .nan, 253_402_300_800, Double(Int64.max),
    ] as [Double])
    func extremeDates(_ time: Double) throws {
        let date = Date(timeIntervalSince1970: time)
        let text = Output.date(date)
        #expect(text == "-" || text.count == 20, "\(text)")
        // JSON too: an item with such a date encodes (as null when out of range).
        let item = Item(path: "/a", kind: .file, modified: date)
        let data = try Output.jsonEncoder().encode([item])
        #expect(try JSONSerialization.jsonObject(with: data) is [Any])
    }

    @Test("distant dates within the years 1–9999 print in full")
    func distantDates() {
        #expect(Output.date(Date.distantFuture) == "4001-01-01T00:00:00Z")
        #expect(Output.date(Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31T23:59:59Z")
        #expect(Output.date(Date(timeIntervalSince1970: 253_402_300_800)) == "-")
    }

    @Test("a streamed JSON listing is one JSON array with every item, exact")
    func streamedJSON() throws {
        let captured = NIOLockedValueBox(Data())
        var stream = Output.ItemStream(json: true)
        stream.write = { data in captured.withLockedValue { $0.append(data) } }
        let pages: [[Item]] = [
            [Item(path: "/a\u{1B}[2J", kind: .file, size: 3), Item(path: "/b\nc", kind: .folder)],
            [],
            [Item(path: "/d\\e", kind: .file, modified: Date(timeIntervalSince1970: 1_700_000_000))],
        ]
        for page in pages { try stream.append(page) }
        stream.finish()
        let data = captured.withLockedValue { $0 }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let items = try decoder.decode([Item].self, from: data)
        #expect(items == pages.flatMap { $0 })
        // The same bytes as the whole array encoded at once.
        var whole = try Output.jsonEncoder().encode(pages.flatMap { $0 })
        whole.append(contentsOf: "\n".utf8)
        #expect(String(decoding: data, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
    }

    @Test("an empty streamed JSON listing is []")
    func emptyJSON() throws {
        let captured = NIOLockedValueBox(Data())
        var stream = Output.ItemStream(json: true)
        stream.write = { data in captured.withLockedValue { $0.append(data) } }
        try stream.append([])
        stream.finish()
        #expect(try JSONSerialization.jsonObject(with: captured.withLockedValue { $0 }) as? [Any] != nil)
    }

    @Test("the table escapes names: one line per item, whatever the names")
    func table() throws {
        let captured = NIOLockedValueBox(Data())
        var stream = Output.ItemStream(json: false)
        stream.write = { data in captured.withLockedValue { $0.append(data) } }
        try stream.append([Item(path: "/x\n- 1 B  2020-01-01T00:00:00Z  forged", kind: .file, size: 1), Item(path: "/\u{1B}]0;t\u{07}", kind: .folder)])
        let text = String(decoding: captured.withLockedValue { $0 }, as: UTF8.self)
        #expect(text.split(separator: "\n").count == 2, "\(text)")
        #expect(text.contains("x\\n- 1 B") && text.contains("\\e]0;t\\a/"), "\(text)")
        #expect(!text.contains("\u{1B}"))
    }

    @Test("a target is echoed without its password", arguments: [
        ("webdav://ann:hunter2@host/dav/", "webdav://"),
        ("webdavs://ann:hunter2@host:99999/dav/x", "webdavs://"),
        ("ann:hunter2@host/dav", "ann:"),
        ("nuxeo://ann:hunter2@[::1/broken", "nuxeo://"),
        ("http://host/a?token=hunter2", "http://host/a?token="),
    ])
    func targetEcho(_ target: String, _ kept: String) {
        let echoed = TargetText.redacted(target)
        #expect(!echoed.contains("hunter2"), "\(echoed)")
        #expect(echoed.hasPrefix(kept), "\(echoed)")
    }

    @Test("a password in a target is noticed and warned about; a remote or a plain URL is not")
    func passwordWarning() {
        #expect(TargetText.hasPassword("webdav://ann:hunter2@host/dav/"))
        #expect(TargetText.hasPassword("ann:hunter2@host"))
        #expect(!TargetText.hasPassword("webdav://ann@host/dav/"))
        #expect(!TargetText.hasPassword("myremote:/a/b@c"))
        #expect(!TargetText.hasPassword("webdav://host/a:b@c"))
        let warning = TargetText.passwordWarning("webdav://ann:hunter2@host/dav/")
        #expect(!warning.contains("hunter2") && warning.contains("process list") && warning.contains("STRATA_PASSWORD"))
    }

    @Test("a provider error is printed redacted and escaped")
    func printedError() {
        let error = ProviderError(.forbidden, "refused: Authorization: Basic dXNlcjpwYXNz\n\u{1B}[2Jgone", httpStatus: 403, request: "GET /a")
        let printed = String(describing: Strata.printable(error))
        #expect(!printed.contains("dXNlcjpwYXNz") && !printed.contains("\u{1B}") && !printed.contains("\n"), "\(printed)")
        #expect(printed.hasPrefix("forbidden HTTP 403 GET /a: refused"))
    }
}

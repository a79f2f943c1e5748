import Foundation
import ProviderAPI
import ProviderKit
import StrataTestSupport
import Testing

private enum Mode: String, CaseIterable {
    case fast, careful
}

@Suite("OptionReader: one reading of adapter options")
struct OptionReaderTests {
    @Test("flags take true/yes/on/1 and false/no/off/0 in any case, and nothing else")
    func flags() throws {
        for text in ["true", "YES", "On", "1", " true "] {
            var reader = OptionReader(["f": text])
            #expect(try reader.flag("f") == true)
        }
        for text in ["false", "No", "OFF", "0"] {
            var reader = OptionReader(["f": text])
            #expect(try reader.flag("f") == false)
        }
        var absent = OptionReader([:])
        #expect(try absent.flag("f") == nil)
        for text in ["", "maybe", "2", "truthy"] {
            var reader = OptionReader(["search": text])
            expectInvalid(naming: "search") { _ = try reader.flag("search") }
        }
    }

    @Test("whole numbers are checked against their bounds and their type")
    func integers() throws {
        var reader = OptionReader(["n": "4096", "big": "9000000000", "small": "12", "word": "many", "huge": "99999999999999999999999"])
        #expect(try reader.integer("n", minimum: 1024) == 4096)
        #expect(try reader.integer("big", as: Int64.self, minimum: 1) == 9_000_000_000)
        #expect(try reader.integer("absent", minimum: 1) == nil)
        expectInvalid(naming: "small") { _ = try reader.integer("small", minimum: 1024) }
        expectInvalid(naming: "word") { _ = try reader.integer("word", minimum: 0) }
        expectInvalid(naming: "huge") { _ = try reader.integer("huge", minimum: 0) }
        expectInvalid(naming: "big") { _ = try reader.integer("big", as: Int32.self, minimum: 0) }
        expectInvalid(naming: "n") { _ = try reader.integer("n", minimum: 0, maximum: 100) }
    }

    @Test("seconds take decimals to the millisecond, zero only when allowed")
    func seconds() throws {
        var reader = OptionReader(["t": "2.5", "zero": "0", "neg": "-1", "inf": "inf", "nan": "nan"])
        #expect(try reader.seconds("t") == .milliseconds(2500))
        #expect(try reader.seconds("zero", allowZero: true) == .zero)
        expectInvalid(naming: "zero") { _ = try reader.seconds("zero") }
        expectInvalid(naming: "neg") { _ = try reader.seconds("neg", allowZero: true) }
        expectInvalid(naming: "inf") { _ = try reader.seconds("inf") }
        expectInvalid(naming: "nan") { _ = try reader.seconds("nan") }
    }

    @Test("a choice matches a case in any case and names the cases when it does not")
    func choices() throws {
        var reader = OptionReader(["mode": "CAREFUL", "other": "reckless"])
        #expect(try reader.choice("mode", as: Mode.self) == .careful)
        do {
            _ = try reader.choice("other", as: Mode.self)
            Issue.record("reckless was taken")
        } catch let error as ProviderError {
            #expect(error.code == .invalidArgument)
            #expect(error.message?.contains("fast or careful") == true)
            #expect(error.message?.contains("other") == true)
        }
    }

    @Test("lists, path segments and required values")
    func texts() throws {
        var reader = OptionReader(["l": " a, b ,,c ", "p": "/nuxeo/", "root": "/", "blank": "  "])
        #expect(reader.list("l") == ["a", "b", "c"])
        #expect(reader.pathSegments("p") == ["nuxeo"])
        #expect(reader.pathSegments("root") == [])
        #expect(try reader.required("l") == " a, b ,,c ")
        expectInvalid(naming: "blank") { _ = try reader.required("blank") }
        expectInvalid(naming: "missing") { _ = try reader.required("missing") }
    }

    @Test("an option nobody asked for is refused by name, with the known ones listed")
    func unknown() throws {
        var reader = OptionReader(["chunkSize": "1", "chunksize": "2"])
        _ = reader.text("chunkSize")
        #expect(reader.unreadNames == ["chunksize"])
        do {
            try reader.rejectUnread(adapter: "demo")
            Issue.record("chunksize was accepted")
        } catch let error as ProviderError {
            #expect(error.code == .invalidArgument)
            #expect(error.message?.contains("'chunksize'") == true)
            #expect(error.message?.contains("chunkSize") == true)
            #expect(error.message?.contains("demo") == true)
        }
        var all = OptionReader(["a": "1"])
        _ = all.text("a")
        try all.rejectUnread(adapter: "demo")
    }

    @Test("readingOptions applies the page limits, refuses unknown names and leaves no string options")
    func readingOptions() throws {
        let configuration = ProviderConfiguration(
            url: URL(string: "http://127.0.0.1/")!, options: ["maxPages": "7", "maxEntries": "70", "mode": "fast"])
        let (common, mode) = try configuration.readingOptions(for: "demo") { try $0.choice("mode", as: Mode.self) }
        #expect(mode == .fast)
        #expect(common.pageLimits == PageLimits(maxPages: 7, maxEntries: 70))
        #expect(common.options.isEmpty)
        var typo = configuration
        typo.options["maxpages"] = "3"
        expectInvalid(naming: "maxpages") { _ = try typo.readingOptions(for: "demo") { try $0.choice("mode", as: Mode.self) } }
        var bad = configuration
        bad.options["maxEntries"] = "0"
        expectInvalid(naming: "maxEntries") { _ = try bad.readingOptions(for: "demo") { _ in () } }
    }
}

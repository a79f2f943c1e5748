import Foundation
import StrataProcessKit
import Testing

/// What `strata copy`, `sync` and `check` print, run as the real binary between local folders.
@Suite("strata copy, sync and check output")
struct TreeCommandOutputTests {
    private static let noRemotes = ["--remotes", FileManager.default.temporaryDirectory.appendingPathComponent("strata-no-remotes.json").path]

    @Test("each action on a line as it ends, names escaped, the rule and a summary; --json is one report")
    func text() async throws {
        let source = try LocalTree()
        try source.write("a.txt", "one")
        try source.write("sub/b\u{1B}[2J.txt", "two")
        try source.folder("empty")
        let destination = try LocalTree()
        let from = source.url.path
        let target = destination.url.path

        let copy = try await StrataProcess.run(["copy"] + Self.noRemotes + [from, target])
        #expect(copy.status == 0, "\(copy)")
        let lines = Set(copy.outputText.split(separator: "\n").map(String.init))
        #expect(lines.contains("copied a.txt (3 B)"))
        #expect(lines.contains("copied sub/b\\e[2J.txt (3 B)"))
        #expect(lines.contains("created empty/"))
        #expect(lines.contains("compared by size and modified time (within 1 µs)"))
        #expect(lines.contains("copied 2 files (6 B), created 2 folders, deleted 0, 0 unchanged, 0 failed"))
        #expect(!copy.outputText.contains("\u{1B}"))

        try destination.write("extra.txt", "x")
        try destination.write("a.txt", "ONE!")
        let check = try await StrataProcess.run(["check"] + Self.noRemotes + [from, target])
        #expect(check.status == 1, "\(check)")
        #expect(check.outputText.contains("extra   extra.txt\n"))
        #expect(check.outputText.contains("differs a.txt\n"))
        #expect(check.outputText.contains("1 matching, 0 missing, 1 extra, 1 differing\n"))
        #expect(check.outputText.contains("names compared as the destination does: case-sensitive, byte-exact\n"))

        let dry = try await StrataProcess.run(["sync", "--dry-run"] + Self.noRemotes + [from, target])
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.outputText.contains("would copy a.txt (3 B)\n"))
        #expect(dry.outputText.contains("would delete extra.txt\n"))
        #expect(destination.exists("extra.txt"))

        let limited = try await StrataProcess.run(["sync", "--max-delete", "0"] + Self.noRemotes + [from, target])
        #expect(limited.status == 1)
        #expect(limited.error.contains("more than --max-delete 0: nothing was deleted"))

        let json = try await StrataProcess.run(["sync", "--json"] + Self.noRemotes + [from, target])
        #expect(json.status == 0, "\(json)")
        let report = try #require(try JSONSerialization.jsonObject(with: json.output) as? [String: Any])
        #expect(report["deleted"] as? Int == 1)
        #expect(report["filesCopied"] as? Int == 0)
        #expect((report["plan"] as? [String: Any])?["mode"] as? String == "sync")
        #expect(try await StrataProcess.run(["check", "--json"] + Self.noRemotes + [from, target]).status == 0)
    }
}

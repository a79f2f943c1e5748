import Foundation
import StrataProcessKit
import Testing

/// What `strata check` says it did not compare, `check --download`, and `copy --checksum`, run as
/// the real binary between local folders.
@Suite("strata check --download and copy --checksum")
struct CheckContentCommandTests {
    private static let noRemotes = ["--remotes", FileManager.default.temporaryDirectory.appendingPathComponent("strata-no-remotes.json").path]

    @Test("check says how many files it compared by size and time only and suggests --download, which finds a same-size file with its time set back; copy --checksum sends it")
    func timeSetBack() async throws {
        let source = try LocalTree()
        try source.write("a.txt", "one")
        try source.write("sub/b.txt", "two")
        let destination = try LocalTree()
        let cache = try LocalTree()
        let options = Self.noRemotes + ["--cache", cache.url.path]
        let (from, target) = (source.url.path, destination.url.path)
        #expect(try await StrataProcess.run(["copy"] + options + [from, target]).status == 0)
        try ContentComparisonTests.rewriteKeepingTime(destination, "a.txt", "ONE")

        let check = try await StrataProcess.run(["check"] + options + [from, target])
        #expect(check.status == 0, "\(check)")
        #expect(check.outputText.contains("2 matching, 0 missing, 0 extra, 0 differing\n"))
        #expect(
            check.outputText.contains(
                "content not compared for 2 matching files (2 by size and modified time): a file rewritten at the same size with "
                    + "its modified time set back would pass; --download compares content\n"), "\(check.outputText)")

        let download = try await StrataProcess.run(["check", "--download"] + options + [from, target])
        #expect(download.status == 1, "\(download)")
        #expect(download.outputText.contains("differs a.txt\n"))
        #expect(download.outputText.contains("compared by content (both files read, sha256)\n"))
        #expect(download.outputText.contains("1 matching, 0 missing, 0 extra, 1 differing\n"))
        #expect(!download.outputText.contains("content not compared"))

        let json = try await StrataProcess.run(["check", "--json"] + options + [from, target])
        let report = try #require(try JSONSerialization.jsonObject(with: json.output) as? [String: Any])
        #expect(report["contentNotCompared"] as? Int == 2)
        #expect((report["matchedBy"] as? [String: Any])?["sizeAndModified"] as? Int == 2)
        #expect((report["rule"] as? [String: Any])?["comparesContent"] as? Bool == false)

        #expect(try await StrataProcess.run(["copy"] + options + [from, target]).outputText.contains("copied 0 files"))
        let checksum = try await StrataProcess.run(["copy", "--checksum"] + options + [from, target])
        #expect(checksum.status == 0, "\(checksum)")
        #expect(checksum.outputText.contains("copied a.txt (3 B)\n"))
        #expect(checksum.outputText.contains("compared by checksum sha256 (computed on both sides)\n"))
        #expect(try destination.read("a.txt") == Data("one".utf8))
        #expect(try await StrataProcess.run(["check", "--download"] + options + [from, target]).status == 0)

        let both = try await StrataProcess.run(["check", "--download", "--checksum"] + options + [from, target])
        #expect(both.status == 64)
    }
}

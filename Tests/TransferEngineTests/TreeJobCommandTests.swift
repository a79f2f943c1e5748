import Foundation
import StrataProcessKit
import Testing

/// `strata copy` keeping its job in the cache folder: an unfinished run is continued by the next
/// one with the same arguments, which says how many files were already done; `--fresh` starts over.
@Suite("strata copy and sync continue an unfinished job")
struct TreeJobCommandTests {
    private static let noRemotes = ["--remotes", FileManager.default.temporaryDirectory.appendingPathComponent("strata-no-remotes.json").path]

    /// A source of four files, and a destination whose folder `c.txt` stands where the source has a
    /// file, so that a copy finishes three files and fails one.
    private static func blockedPair() throws -> (LocalTree, LocalTree) {
        let source = try LocalTree()
        try source.write("a.txt", "one")
        try source.write("b.txt", "two")
        try source.write("c.txt", "three")
        try source.write("sub/d.txt", "four")
        let destination = try LocalTree()
        try destination.folder("c.txt")
        return (source, destination)
    }

    @Test("a failed copy run again continues and prints how many files were already done; --json says it too; --fresh starts over")
    func continues() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("strata-jobs-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: cache) }
        func strata(_ arguments: [String]) async throws -> StrataRun {
            try await StrataProcess.run(arguments, environment: ["XDG_CACHE_HOME": cache.path])
        }

        let (source, destination) = try Self.blockedPair()
        let arguments = ["copy"] + Self.noRemotes + [source.url.path, destination.url.path]
        let failed = try await strata(arguments)
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.outputText.contains("copied 3 files (10 B)"))
        #expect(!failed.outputText.contains("resumed"))

        try FileManager.default.removeItem(at: destination.url.appendingPathComponent("c.txt"))
        let resumed = try await strata(arguments)
        #expect(resumed.status == 0, "\(resumed)")
        let lines = resumed.outputText.split(separator: "\n").map(String.init)
        #expect(lines.first == "resumed an unfinished run: 3 files were already done")
        #expect(lines.contains("copied c.txt (5 B)"))
        #expect(lines.last == "copied 1 files (5 B), created 0 folders, deleted 0, 0 unchanged, 0 failed")
        #expect(try destination.read("c.txt") == Data("three".utf8))

        // That job finished: the next run is a new one.
        let again = try await strata(arguments)
        #expect(again.status == 0)
        #expect(!again.outputText.contains("resumed"))
        #expect(again.outputText.contains("copied 0 files (0 B), created 0 folders, deleted 0, 4 unchanged, 0 failed"))

        // --json carries it; --fresh forgets the unfinished run.
        let (jsonSource, jsonDestination) = try Self.blockedPair()
        let jsonArguments = ["copy", "--json"] + Self.noRemotes + [jsonSource.url.path, jsonDestination.url.path]
        #expect(try await strata(jsonArguments).status == 1)
        try FileManager.default.removeItem(at: jsonDestination.url.appendingPathComponent("c.txt"))
        let json = try await strata(jsonArguments)
        #expect(json.status == 0, "\(json)")
        let report = try #require(try JSONSerialization.jsonObject(with: json.output) as? [String: Any])
        #expect(report["alreadyDone"] as? Int == 3)
        #expect(report["resumed"] as? Bool == true)
        #expect(report["filesCopied"] as? Int == 1)

        let (freshSource, freshDestination) = try Self.blockedPair()
        let freshArguments = ["copy"] + Self.noRemotes + [freshSource.url.path, freshDestination.url.path]
        #expect(try await strata(freshArguments).status == 1)
        try FileManager.default.removeItem(at: freshDestination.url.appendingPathComponent("c.txt"))
        let fresh = try await strata(["copy", "--fresh"] + Self.noRemotes + [freshSource.url.path, freshDestination.url.path])
        #expect(fresh.status == 0, "\(fresh)")
        #expect(!fresh.outputText.contains("resumed"))
        #expect(fresh.outputText.contains("copied 1 files (5 B), created 0 folders, deleted 0, 3 unchanged, 0 failed"))
    }
}

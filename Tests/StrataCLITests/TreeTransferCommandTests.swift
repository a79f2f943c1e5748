import Foundation
import Testing

@testable import StrataCLI

/// `strata copy`, `sync` and `check` between two local folders, run in process: their exit
/// statuses and what they leave on disk.
@Suite("strata copy, sync and check")
struct TreeTransferCommandTests {
    private static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-cli-tree-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private static func run(_ arguments: [String]) async -> Int32 {
        let remotes = FileManager.default.temporaryDirectory.appendingPathComponent("strata-no-remotes-\(UUID().uuidString).json").path
        let command = arguments[0]
        return await StrataCommandLine().run([command, "--remotes", remotes] + arguments.dropFirst())
    }

    @Test("copy, check, a changed file, sync with a dry run and a deletion limit: statuses 0 and 1 as documented")
    func localFolders() async throws {
        let source = try Self.folder()
        let destination = try Self.folder().appendingPathComponent("made/by copy", isDirectory: true)
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: destination.deletingLastPathComponent().deletingLastPathComponent())
        }
        try Self.write("one", to: source.appendingPathComponent("a.txt"))
        try Self.write("two", to: source.appendingPathComponent("sub/b.txt"))
        try FileManager.default.createDirectory(at: source.appendingPathComponent("empty"), withIntermediateDirectories: true)

        #expect(await Self.run(["copy", source.path, destination.path]) == 0)
        #expect(try String(contentsOf: destination.appendingPathComponent("sub/b.txt"), encoding: .utf8) == "two")
        #expect(FileManager.default.fileExists(atPath: destination.appendingPathComponent("empty").path))
        #expect(await Self.run(["check", source.path, destination.path]) == 0)
        #expect(await Self.run(["check", "--json", source.path, destination.path]) == 0)
        #expect(await Self.run(["check", "--no-source-digests", source.path, destination.path]) == 0)

        try Self.write("extra", to: destination.appendingPathComponent("extra.txt"))
        #expect(await Self.run(["check", source.path, destination.path]) == 1)
        #expect(await Self.run(["sync", "--dry-run", source.path, destination.path]) == 0)
        #expect(FileManager.default.fileExists(atPath: destination.appendingPathComponent("extra.txt").path))
        #expect(await Self.run(["sync", "--max-delete", "0", source.path, destination.path]) == 1)
        #expect(FileManager.default.fileExists(atPath: destination.appendingPathComponent("extra.txt").path))
        #expect(await Self.run(["sync", "--max-delete", "1", "--json", source.path, destination.path]) == 0)
        #expect(!FileManager.default.fileExists(atPath: destination.appendingPathComponent("extra.txt").path))
        #expect(await Self.run(["check", source.path, destination.path]) == 0)
    }

    @Test("bad numbers are usage errors")
    func usage() async {
        #expect(await Self.run(["sync", "--max-delete", "-1", "/tmp", "/tmp"]) == 64)
        #expect(await Self.run(["sync", "--max-delete-percent", "101", "/tmp", "/tmp"]) == 64)
        #expect(await Self.run(["sync", "--max-delete-percent", "-1", "/tmp", "/tmp"]) == 64)
        #expect(await Self.run(["copy", "--transfers", "0", "/tmp", "/tmp"]) == 64)
        #expect(await Self.run(["copy", "--checkers", "0", "/tmp", "/tmp"]) == 64)
        #expect(await Self.run(["sync", "--checkers", "0", "/tmp", "/tmp"]) == 64)
        #expect(await Self.run(["check", "--checkers", "0", "/tmp", "/tmp"]) == 64)
    }

    @Test("--checkers: copy and check with one folder listed at once give the same tree and answer")
    func checkers() async throws {
        let source = try Self.folder()
        let destination = try Self.folder()
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: destination)
        }
        for index in 0..<5 { try Self.write("\(index)", to: source.appendingPathComponent("f\(index)/g/file.txt")) }
        #expect(await Self.run(["copy", "--checkers", "1", "--transfers", "3", source.path, destination.path]) == 0)
        #expect(try String(contentsOf: destination.appendingPathComponent("f4/g/file.txt"), encoding: .utf8) == "4")
        #expect(await Self.run(["check", "--checkers", "16", source.path, destination.path]) == 0)
        #expect(await Self.run(["sync", "--checkers", "2", source.path, destination.path]) == 0)
    }
}

import Foundation
import StrataProcessKit
import Testing

@testable import StrataCLI

/// Foundation's file errors reach the user as the file and the reason in words, never as
/// `Error Domain=NSCocoaErrorDomain Code=… UserInfo={…}` (issue 33: `--password-file` and `--cache`).
@Suite("File errors in words")
struct FileErrorTextTests {
    @Test("a missing file, a folder under a file and a refused write name the file and the reason")
    func words() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/pass"
        let read = #expect(throws: (any Error).self) { _ = try String(contentsOfFile: missing, encoding: .utf8) }
        let readText = try #require(read.flatMap(FileErrorText.describe))
        #expect(readText == "\(missing): no such file or directory", "\(readText)")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("strata-fe-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let made = #expect(throws: (any Error).self) {
            try FileManager.default.createDirectory(at: file.appendingPathComponent("c"), withIntermediateDirectories: true)
        }
        let madeText = try #require(made.flatMap(FileErrorText.describe))
        // Foundation says "not a directory" (POSIX) or nothing (512): either way the reason is in words.
        #expect(madeText.contains(file.path), "\(madeText)")
        #expect(madeText.hasSuffix("not a directory") || madeText.hasSuffix("\(file.path) is a file, not a folder"), "\(madeText)")
        #expect(FileErrorText.describe(CancellationError()) == nil)
        let printed = String(describing: Strata.printable(try #require(made)))
        #expect(!printed.contains("NSCocoaErrorDomain") && !printed.contains("UserInfo"), "\(printed)")
    }

    @Test("strata prints a missing password file, a cache under a file and an unwritable remotes file in words")
    func commands() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-fe-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let blocker = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let environment: [String: String?] = ["XDG_CONFIG_HOME": folder.path, "XDG_CACHE_HOME": folder.path, "STRATA_PASSWORD": nil]
        let missing = folder.appendingPathComponent("missing-pass").path
        // 127.0.0.1:9 (discard) is never reached: each command stops at its file first.
        let runs: [(arguments: [String], expected: [String])] = [
            (["ls", "-u", "ann", "--password-file", missing, "webdav://127.0.0.1:9/"],
             ["cannot read the password file", missing, "no such file or directory"]),
            (["cache", "stats", "--cache", blocker.appendingPathComponent("c").path],
             ["cannot make the cache folder", "\(blocker.path) is a file, not a folder"]),
            (["remote", "add", "--remotes", blocker.appendingPathComponent("r.json").path, "work", "webdav://127.0.0.1:9/"],
             ["cannot save the remotes file", "\(blocker.path): a file is already there"]),
        ]
        for run in runs {
            let result = try await StrataProcess.run(run.arguments, environment: environment)
            #expect(result.status != 0, "\(result)")
            for words in run.expected { #expect(result.error.contains(words), "\(run.arguments): \(result)") }
            #expect(!result.error.contains("NSCocoaErrorDomain") && !result.error.contains("UserInfo"), "\(result)")
        }
    }

    @Test("a target missing its // never prints its password, in the warning or the final error")
    func opaqueTarget() async throws {
        let result = try await StrataProcess.run(["ls", "webdav:ann:hunter2@127.0.0.1:9/x"], environment: ["STRATA_PASSWORD": nil])
        #expect(result.status != 0, "\(result)")
        #expect(!result.error.contains("hunter2") && !result.outputText.contains("hunter2"), "\(result)")
    }
}

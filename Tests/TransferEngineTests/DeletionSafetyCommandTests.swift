import Foundation
import StrataProcessKit
import Testing

/// `strata sync --max-delete`, `--max-delete-percent`, `--force` and `--backup-dir`, run as the real
/// binary between local folders: what they print, their statuses, and what they leave on disk.
@Suite("strata sync deletion limits and --backup-dir")
struct DeletionSafetyCommandTests {
    private static let noRemotes = ["--remotes", FileManager.default.temporaryDirectory.appendingPathComponent("strata-no-remotes.json").path]

    private static func strata(_ arguments: [String], cache: URL) async throws -> StrataRun {
        try await StrataProcess.run(arguments, environment: ["XDG_CACHE_HOME": cache.path])
    }

    @Test("--max-delete counts the 50 files of a deleted folder: nothing deleted, the counts said; the share stops a sync; --force passes it")
    func limits() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("strata-deletes-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: cache) }
        let source = try LocalTree()
        try source.write("keep.txt", "keep")
        let destination = try LocalTree()
        try destination.write("keep.txt", "keep")
        for index in 0..<50 { try destination.write("old/f\(index).txt", "0123456789") }
        try destination.sameTime("keep.txt", as: source, "keep.txt")
        let before = try destination.listing()
        let (from, target) = (source.url.path, destination.url.path)

        let dry = try await Self.strata(["sync", "--dry-run", "--force"] + Self.noRemotes + [from, target], cache: cache)
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.outputText.contains("would delete old/\n"))
        #expect(dry.outputText.contains("delete 1 (50 files, 1 folder, 500 B deleted); 1 unchanged"), "\(dry.outputText)")

        let limited = try await Self.strata(["sync", "--max-delete", "10", "--force"] + Self.noRemotes + [from, target], cache: cache)
        #expect(limited.status == 1, "\(limited)")
        #expect(limited.error.contains("the sync would delete 51 items (50 files, 1 folder, 500 B), more than --max-delete 10: nothing was deleted"), "\(limited.error)")
        #expect(try destination.listing() == before)

        let share = try await Self.strata(["sync"] + Self.noRemotes + [from, target], cache: cache)
        #expect(share.status == 1, "\(share)")
        #expect(share.error.contains("the sync would delete 50 of the destination's 51 files (98 %), more than --max-delete-percent 50 %: nothing was changed; --force lets it go on"), "\(share.error)")
        #expect(try destination.listing() == before)

        let json = try await Self.strata(["sync", "--json", "--dry-run", "--force"] + Self.noRemotes + [from, target], cache: cache)
        let report = try #require(try JSONSerialization.jsonObject(with: json.output) as? [String: Any])
        let deletions = try #require((report["plan"] as? [String: Any])?["deletions"] as? [String: Any])
        #expect(deletions["files"] as? Int == 50 && deletions["folders"] as? Int == 1 && deletions["items"] as? Int == 51)

        let forced = try await Self.strata(["sync", "--force", "--max-delete", "51"] + Self.noRemotes + [from, target], cache: cache)
        #expect(forced.status == 0, "\(forced)")
        #expect(forced.outputText.contains("deleted 1 (50 files, 1 folder, 500 B), 1 unchanged, 0 failed"), "\(forced.outputText)")
        #expect(try destination.listing() == ["keep.txt"])
    }

    @Test("--backup-dir: what sync deletes and overwrites is moved there and counted; inside the tree it is refused")
    func backupDir() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("strata-deletes-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: cache) }
        let source = try LocalTree()
        try source.write("a.txt", "the new a")
        try source.write("b.txt", "b")
        let server = try LocalTree()
        try server.write("dst/a.txt", "old a")
        try server.write("dst/b.txt", "b")
        try server.write("dst/gone/c.txt", "c")
        try server.sameTime("dst/b.txt", as: source, "b.txt")
        let target = server.url.appendingPathComponent("dst").path
        let backups = server.url.appendingPathComponent("backups").path

        let inside = try await Self.strata(
            ["sync", "--backup-dir", target + "/backups"] + Self.noRemotes + [source.url.path, target], cache: cache)
        #expect(inside.status != 0, "\(inside)")
        #expect(inside.error.contains("overlaps the destination"), "\(inside.error)")
        #expect(try server.read("dst/a.txt") == Data("old a".utf8))

        let sync = try await Self.strata(["sync", "--backup-dir", backups] + Self.noRemotes + [source.url.path, target], cache: cache)
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.outputText.contains("backed up gone/\n"), "\(sync.outputText)")
        #expect(sync.outputText.contains("copied 1 files (9 B), created 0 folders, deleted 0, backed up 2 to /"), "\(sync.outputText)")
        #expect(!server.exists("dst/gone"))
        let stamps = try FileManager.default.contentsOfDirectory(atPath: backups)
        #expect(stamps.count == 1)
        let stamp = try #require(stamps.first)
        #expect(try server.read("backups/\(stamp)/a.txt") == Data("old a".utf8))
        #expect(try server.read("backups/\(stamp)/gone/c.txt") == Data("c".utf8))
        #expect(try server.read("dst/a.txt") == Data("the new a".utf8))
    }
}

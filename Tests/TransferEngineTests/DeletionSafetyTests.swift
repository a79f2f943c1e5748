import Foundation
import LocalProvider
import ProviderAPI
import Testing
import TransferEngine

/// The safety nets of a sync's deletions: `maxDelete` counts what a deleted folder holds, a sync
/// that would delete too large a share of the destination stops, and a backup directory keeps what
/// a sync deletes or overwrites.
@Suite("sync deletion limits and the backup directory")
struct DeletionSafetyTests {
    /// `count` files of `size` bytes each in `folder`, each with its own content.
    private static func fill(_ tree: LocalTree, _ folder: String, count: Int, size: Int = 100) throws {
        for index in 0..<count {
            try tree.write("\(folder)/f\(index).txt", Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) }))
        }
    }

    @Test("--max-delete 10 against a folder of 50 files deletes nothing, even the item in the way; the copies still go")
    func maxDeleteCountsFiles() async throws {
        let source = try LocalTree()
        try source.write("keep.txt", "keep")
        try source.write("new.txt", "new")
        try source.write("was folder", "a file now")
        let destination = try LocalTree()
        try destination.write("keep.txt", "keep")
        try Self.fill(destination, "old", count: 50)
        try Self.fill(destination, "was folder", count: 3)
        try destination.sameTime("keep.txt", as: source, "keep.txt")
        let before = try destination.listing()
        // The share is not what this test is about.
        let options = TransferManager.Options.testing(maxDelete: 10, maxDeletePercent: nil)

        let dry = try await TransferManager(options: { var dry = options; dry.dryRun = true; return dry }())
            .sync(from: source.endpoint, to: destination.endpoint)
        #expect(dry.plan.deletions == DeletionCount(files: 53, folders: 2, bytes: 5_300, destinationFiles: 54))
        #expect(dry.deletionLimitExceeded)
        #expect(try destination.listing() == before)

        let report = try await TransferManager(options: options).sync(from: source.endpoint, to: destination.endpoint)
        #expect(report.deletionLimitExceeded)
        #expect(!report.succeeded)
        #expect(report.deleted == 0)
        #expect(report.plan.deletions.items == 55)
        for index in 0..<50 { #expect(destination.exists("old/f\(index).txt")) }
        #expect(try destination.read("was folder/f0.txt").count == 100)
        #expect(try destination.read("new.txt") == Data("new".utf8))

        // Within the limit it goes.
        let allowed = try await TransferManager(options: .testing(maxDelete: 55, maxDeletePercent: nil))
            .sync(from: source.endpoint, to: destination.endpoint)
        #expect(allowed.succeeded)
        #expect(try destination.listing() == (try source.listing()))
    }

    @Test("a sync that would delete more than half the destination's files (those in deleted folders counted) stops before any change")
    func shareStopsTheSync() async throws {
        let source = try LocalTree()
        for name in ["a", "b", "c"] { try source.write("\(name).txt", name) }
        try source.write("new.txt", "new")
        let destination = try LocalTree()
        for name in ["a", "b", "c"] { try destination.write("\(name).txt", name) }
        try Self.fill(destination, "old", count: 4)
        let before = try destination.listing()

        // 4 of 7 files: 57 %.
        let stopped = try await TransferManager(options: .testing()).sync(from: source.endpoint, to: destination.endpoint)
        #expect(stopped.deletionShareExceeded)
        #expect(!stopped.succeeded)
        #expect(stopped.plan.deletions.files == 4 && stopped.plan.deletions.destinationFiles == 7)
        #expect(stopped.filesCopied == 0 && stopped.deleted == 0)
        #expect(try destination.listing() == before, "nothing copied, nothing deleted")

        let dry = try await TransferManager(options: .testing(dryRun: true)).sync(from: source.endpoint, to: destination.endpoint)
        #expect(dry.deletionShareExceeded)

        // A higher limit, or none (`--force`), lets it go.
        let higher = try await TransferManager(options: .testing(dryRun: true, maxDeletePercent: 60)).sync(
            from: source.endpoint, to: destination.endpoint)
        #expect(!higher.deletionShareExceeded)
        let forced = try await TransferManager(options: .testing(maxDeletePercent: nil)).sync(from: source.endpoint, to: destination.endpoint)
        #expect(forced.succeeded)
        #expect(try destination.listing() == (try source.listing()))
    }

    @Test("deleting half the destination's files is within the default share; a copy is never stopped by it")
    func shareBoundary() async throws {
        let source = try LocalTree()
        try source.write("a.txt", "a")
        let destination = try LocalTree()
        try destination.write("a.txt", "a")
        try destination.write("b.txt", "b")
        let sync = try await TransferManager(options: .testing()).sync(from: source.endpoint, to: destination.endpoint)
        #expect(sync.succeeded)
        #expect(!destination.exists("b.txt"))

        let empty = try LocalTree()
        let copy = try await TransferManager(options: .testing()).copy(from: empty.endpoint, to: destination.endpoint)
        #expect(copy.succeeded)
        #expect(destination.exists("a.txt"))
    }

    @Test("a backup directory receives what sync deletes or overwrites, byte for byte; a second run gets a folder of its own")
    func backupKeepsEverything() async throws {
        let source = try LocalTree()
        try source.write("same.txt", "same")
        try source.write("changed.txt", "the new content")
        try source.write("was folder", "a file now")
        try source.write("was file/inside.txt", "inside")
        let server = try LocalTree()
        try server.write("dst/same.txt", "same")
        try server.write("dst/changed.txt", "old")
        try Self.fill(server, "dst/was folder", count: 3)
        try server.write("dst/was file", "a file before")
        try server.write("dst/extra.txt", "extra")
        try Self.fill(server, "dst/extra folder/deep", count: 5, size: 1_000)
        try server.sameTime("dst/same.txt", as: source, "same.txt")
        let old = try Self.contents(of: server, below: "dst")
        let destination = TransferEndpoint(server.provider, at: "/dst")

        let report = try await TransferManager(options: .testing(maxDeletePercent: nil, backupDirectory: "/backups"))
            .sync(from: source.endpoint, to: destination)
        #expect(report.succeeded)
        #expect(report.deleted == 0)
        #expect(report.backedUp == 5)
        let folder = try #require(report.backupFolder)
        #expect(folder.parent == "/backups")
        // The destination is like the source, and every old byte is in the backup.
        #expect(try Self.contents(of: server, below: "dst") == (try Self.contents(of: source, below: nil)))
        let kept = try Self.contents(of: server, below: String(folder.description.dropFirst()))
        var expected = old
        expected.removeValue(forKey: "same.txt")
        #expect(kept == expected)

        // The same second or not, the next run keeps its items apart.
        try source.write("changed.txt", "newer still")
        let again = try await TransferManager(options: .testing(backupDirectory: "/backups")).sync(from: source.endpoint, to: destination)
        #expect(again.succeeded)
        #expect(again.backedUp == 1)
        let second = try #require(again.backupFolder)
        #expect(second != folder)
        #expect(try server.read(String(second.appending(ItemPath("/changed.txt")).description.dropFirst())) == Data("the new content".utf8))
        #expect(try Self.contents(of: server, below: String(folder.description.dropFirst())) == expected)

        // A copy keeps what it overwrites too.
        try source.write("changed.txt", "and again")
        let copy = try await TransferManager(options: .testing(backupDirectory: "/backups")).copy(from: source.endpoint, to: destination)
        #expect(copy.succeeded && copy.backedUp == 1)
        let third = try #require(copy.backupFolder)
        #expect(try server.read(String(third.description.dropFirst()) + "/changed.txt") == Data("newer still".utf8))
        #expect(try server.read("dst/changed.txt") == Data("and again".utf8))
    }

    /// `src/a.txt` beside `dst/a.txt` (another content) and `dst/extra.txt`: a sync would
    /// overwrite one file and delete another, so a backup directory would be used.
    private static func backupTree() throws -> LocalTree {
        let server = try LocalTree()
        try server.write("src/a.txt", "a")
        try server.write("dst/a.txt", "old")
        try server.write("dst/extra.txt", "extra")
        return server
    }

    @Test("a backup directory inside the destination's or the source's tree, or holding either, is refused before anything changes")
    func backupInsideRefused() async throws {
        let server = try Self.backupTree()
        let before = try server.listing()
        let source = TransferEndpoint(server.provider, at: "/src")
        let destination = TransferEndpoint(server.provider, at: "/dst")
        for backup: ItemPath in ["/dst/backup", "/dst", "/src/backup", "/"] {
            await #expect(throws: ProviderError.self, "\(backup)") {
                try await TransferManager(options: .testing(maxDeletePercent: nil, backupDirectory: backup)).sync(from: source, to: destination)
            }
            do {
                _ = try await TransferManager(options: .testing(backupDirectory: backup)).copy(from: source, to: destination)
                Issue.record("\(backup) was accepted")
            } catch let error as ProviderError {
                #expect(error.code == .invalidArgument)
            }
        }
        #expect(try server.listing() == before)
    }

    @Test("a backup directory inside the source by another spelling (two providers, one folder) is refused before anything changes")
    func backupInsideSourceOtherSpelling() async throws {
        let server = try Self.backupTree()
        let before = try server.listing()
        // The source is a provider rooted at base/src (another account than the base's): the
        // backup directory /src/old of the destination's provider is inside it.
        let source = TransferEndpoint(try LocalProvider(root: server.url.appendingPathComponent("src", isDirectory: true)))
        let destination = TransferEndpoint(server.provider, at: "/dst")
        #expect(source.provider.account != destination.provider.account)
        do {
            _ = try await TransferManager(options: .testing(maxDeletePercent: nil, backupDirectory: "/src/old")).sync(from: source, to: destination)
            Issue.record("a backup directory inside the source was accepted")
        } catch let error as ProviderError {
            #expect(error.code == .invalidArgument)
            #expect((error.message ?? "").contains("overlaps the source"), "\(error)")
        }
        #expect(try server.listing() == before)
    }

    /// A provider whose moves fail with a server error.
    private struct FailingMoves: ForwardingProvider {
        let base: any StorageProvider
        func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
            throw ProviderError(.server, "no move today")
        }
    }

    @Test("an item that cannot be moved to the backup is neither overwritten nor deleted")
    func backupFailureLosesNothing() async throws {
        let source = try LocalTree()
        try source.write("changed.txt", "the new content")
        try source.write("kept.txt", "kept")
        let server = try LocalTree()
        try server.write("dst/changed.txt", "old")
        try server.write("dst/kept.txt", "kept")
        try server.sameTime("dst/kept.txt", as: source, "kept.txt")
        try server.write("dst/extra.txt", "extra")
        let before = try Self.contents(of: server, below: "dst")
        let destination = TransferEndpoint(FailingMoves(base: server.provider), at: "/dst")
        let report = try await TransferManager(options: .testing(maxDeletePercent: nil, backupDirectory: "/backups"))
            .sync(from: source.endpoint, to: destination)
        #expect(!report.succeeded)
        #expect(report.failures.map(\.relativePath) == ["/changed.txt"])
        #expect(report.backedUp == 0 && report.deleted == 0 && report.deletionsSkipped == 1)
        #expect(try Self.contents(of: server, below: "dst") == before)
    }

    /// Every file below `folder` of `tree` (its root when `nil`), by its path below it, with its content.
    private static func contents(of tree: LocalTree, below folder: String?) throws -> [String: Data] {
        let base = folder.map { tree.url.appendingPathComponent($0) } ?? tree.url
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [:] }
        while let relative = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: base.path + "/" + relative, isDirectory: &isFolder)
            if !isFolder.boolValue { files[relative] = try Data(contentsOf: base.appendingPathComponent(relative)) }
        }
        return files
    }
}

extension LocalTree {
    /// Gives the file at `relative` the modified time of `other`'s file at `otherRelative`, so that the two compare the same.
    func sameTime(_ relative: String, as other: LocalTree, _ otherRelative: String) throws {
        let date = try FileManager.default.attributesOfItem(atPath: other.url.appendingPathComponent(otherRelative).path)[.modificationDate]
        try FileManager.default.setAttributes([.modificationDate: try #require(date as? Date)], ofItemAtPath: url.appendingPathComponent(relative).path)
    }
}

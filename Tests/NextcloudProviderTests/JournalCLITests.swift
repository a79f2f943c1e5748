import Foundation
import ProviderAPI
import StrataProcessKit
import Testing
import WebDAVProvider

/// `--offline` writes, `strata pending`, `replay` and `resolve`, run as the real binary against the loopback server.
@Suite("strata's sync journal against the loopback Nextcloud server")
struct JournalCLITests {
    /// A loopback server with a scratch folder, a cache folder, and strata's arguments for them.
    struct Setup {
        let cloud: LoopbackNextcloud
        let provider: WebDAVProvider
        /// The scratch folder's name (a folder of alice's root).
        let folder: String
        let cache: URL
        let local: URL
        /// `nextcloud://127.0.0.1:port`: the account's root.
        let base: String

        static func start() async throws -> Setup {
            let cloud = try await LoopbackNextcloud.start()
            let (_, folder) = try await cloud.scratch()
            let provider = try await cloud.provider()
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("journal-cli-\(UUID().uuidString)")
            let local = FileManager.default.temporaryDirectory.appendingPathComponent("journal-cli-files-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
            let base = cloud.server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "nextcloud://").trimmingSuffix("/")
            return Setup(cloud: cloud, provider: provider, folder: folder, cache: cache, local: local, base: base)
        }

        /// The URL of `path` below the scratch folder.
        func url(_ path: String = "") -> String { "\(base)/\(folder)" + (path.isEmpty ? "" : "/\(path)") }

        /// The provider's path of `path` below the scratch folder.
        func path(_ path: String) throws -> ItemPath { try ItemPath("/\(folder)/\(path)") }

        /// Runs strata with the cache folder, alice's login and no saved remotes.
        func strata(_ arguments: [String]) async throws -> StrataRun {
            let common = [
                "--cache", cache.path, "-u", LoopbackNextcloud.user, "--retries", "0",
                "--remotes", local.appendingPathComponent("no-remotes.json").path,
            ]
            return try await StrataProcess.run(
                [arguments[0]] + common + arguments.dropFirst(), environment: ["STRATA_PASSWORD": LoopbackNextcloud.password])
        }

        /// A local file holding `text`.
        func file(_ name: String, _ text: String) throws -> String {
            let url = local.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }

        /// The server's content of `path` below the scratch folder.
        func content(_ path: String) async throws -> String {
            let sink = MemorySink()
            _ = try await provider.download(try self.path(path), to: sink, options: DownloadOptions())
            return String(decoding: await sink.data, as: UTF8.self)
        }

        func exists(_ path: String) async throws -> Bool { try await provider.itemIfExists(at: try self.path(path)) != nil }

        /// Uploads `text` as `path` below the scratch folder, straight to the server.
        func serverWrite(_ path: String, _ text: String) async throws {
            let target = try self.path(path)
            _ = try await provider.upload(
                DataSource(string: text), to: target.parent, name: target.name, options: UploadOptions(conflict: .overwrite))
        }

        /// Lists the scratch folder with the cache, which is all the journal needs to write in it offline.
        func browse() async throws {
            let listed = try await strata(["ls", url()])
            #expect(listed.status == 0, "\(listed)")
        }

        func stop() async {
            await cloud.stop()
            try? FileManager.default.removeItem(at: cache)
            try? FileManager.default.removeItem(at: local)
        }
    }

    /// The journal id in a `pending #ID …` line of `run`'s output that contains `text`.
    static func id(in run: StrataRun, _ text: String) throws -> String {
        let line = try #require(run.outputText.split(separator: "\n").first { $0.hasPrefix("pending #") && $0.contains(text) })
        return String(line.dropFirst("pending #".count).prefix { $0.isNumber })
    }

    @Test("--offline mkdir, put, mv and rm are recorded, listed as pending, and replayed onto the server")
    func offlineWritesReplayed() async throws {
        let setup = try await Setup.start()
        defer { Task { await setup.stop() } }
        try await setup.serverWrite("old.txt", "old")
        try await setup.serverWrite("keep.txt", "keep")
        try await setup.browse()
        let folder = "/\(setup.folder)"

        let mkdir = try await setup.strata(["mkdir", "--offline", setup.url("new")])
        #expect(mkdir.status == 0, "\(mkdir)")
        #expect(mkdir.outputText.hasPrefix("pending #"))
        #expect(mkdir.outputText.contains("createFolder \(folder)/new\n"))
        let put = try await setup.strata(["put", "--offline", try setup.file("local.txt", "local!"), setup.url("new") + "/"])
        #expect(put.status == 0, "\(put)")
        #expect(put.outputText.contains("upload \(folder)/new/local.txt (6 bytes)"))
        let move = try await setup.strata(["mv", "--offline", setup.url("old.txt"), "\(folder)/renamed.txt"])
        #expect(move.status == 0, "\(move)")
        #expect(move.outputText.contains("move \(folder)/old.txt → \(folder)/renamed.txt"))
        let remove = try await setup.strata(["rm", "--offline", setup.url("keep.txt")])
        #expect(remove.status == 0, "\(remove)")
        #expect(remove.outputText.contains("delete \(folder)/keep.txt"))
        let folderID = try Self.id(in: mkdir, "createFolder")
        let moveID = try Self.id(in: move, "move")

        // Nothing reached the server.
        #expect(try await setup.exists("keep.txt"))
        #expect(try await setup.exists("old.txt"))
        #expect(try await !setup.exists("new"))

        // The cached view shows the writes, marked pending.
        let listed = try await setup.strata(["ls", "--offline", setup.url()])
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.outputText.contains("new/  (pending #\(folderID))\n"), "\(listed)")
        #expect(listed.outputText.contains("renamed.txt  (pending #\(moveID))\n"), "\(listed)")
        #expect(!listed.outputText.contains("keep.txt"))
        #expect(!listed.outputText.contains("old.txt"))
        let inNew = try await setup.strata(["ls", "--offline", "--json", setup.url("new")])
        let items = try #require(try JSONSerialization.jsonObject(with: inNew.output) as? [[String: Any]])
        #expect(items.count == 1)
        #expect((items.first?["properties"] as? [String: String])?["strata.cache.pending"] == "true")

        let pending = try await setup.strata(["pending", setup.base])
        #expect(pending.status == 0, "\(pending)")
        #expect(pending.outputText.contains("#\(folderID)  pending   "))
        #expect(pending.outputText.contains("  createFolder \(folder)/new\n"))
        #expect(pending.outputText.hasSuffix("4 pending, 0 in conflict, 0 failed\n"), "\(pending)")
        let alias = try await setup.strata(["sync-journal", "--json", setup.url()])
        #expect(alias.status == 0, "\(alias)")
        let entries = try #require(try JSONSerialization.jsonObject(with: alias.output) as? [[String: Any]])
        #expect(entries.compactMap { $0["action"] as? String } == ["createFolder", "upload", "move", "delete"])
        #expect(entries.allSatisfy { $0["state"] as? String == "pending" })
        #expect(entries[3]["path"] as? String == "\(folder)/keep.txt")
        #expect((entries[3]["recorded"] as? [String: Any])?["etag"] != nil)

        let replay = try await setup.strata(["replay", setup.base])
        #expect(replay.status == 0, "\(replay)")
        #expect(replay.outputText.contains("replayed #\(folderID) createFolder \(folder)/new\n"))
        #expect(replay.outputText.contains("replayed #\(moveID) move \(folder)/old.txt → \(folder)/renamed.txt\n"))
        #expect(replay.outputText.contains("replayed 4, 0 in conflict, 0 failed, 0 held back; 0 waiting\n"), "\(replay)")

        #expect(try await setup.content("new/local.txt") == "local!")
        #expect(try await setup.content("renamed.txt") == "old")
        #expect(try await !setup.exists("old.txt"))
        #expect(try await !setup.exists("keep.txt"))
        #expect(try await setup.strata(["pending", setup.base]).outputText == "nothing pending\n")
        let online = try await setup.strata(["ls", setup.url()])
        #expect(!online.outputText.contains("pending"), "\(online)")
    }

    @Test("--offline mkdir -p and cp are recorded, a folder put is refused; rm of what was made offline cancels it")
    func offlineTrees() async throws {
        let setup = try await Setup.start()
        defer { Task { await setup.stop() } }
        try await setup.serverWrite("a.txt", "aaa")
        try await setup.browse()
        let folder = "/\(setup.folder)"
        let tree = setup.local.appendingPathComponent("tree")
        try FileManager.default.createDirectory(at: tree.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("one".utf8).write(to: tree.appendingPathComponent("one.txt"))
        try Data("two".utf8).write(to: tree.appendingPathComponent("sub/two.txt"))

        let deep = try await setup.strata(["mkdir", "-p", "--offline", setup.url("x/y/z")])
        #expect(deep.status == 0, "\(deep)")
        #expect(deep.outputText.split(separator: "\n").count == 3, "\(deep)")
        let copy = try await setup.strata(["cp", "--offline", setup.url("a.txt"), "\(folder)/x/a.txt"])
        #expect(copy.status == 0, "\(copy)")
        #expect(copy.outputText.contains("copy \(folder)/a.txt → \(folder)/x/a.txt\n"))
        // A folder is put as `strata copy` does, which needs the server.
        let put = try await setup.strata(["put", "--offline", tree.path, setup.url("tree")])
        #expect(put.status == 64, "\(put)")
        #expect(put.error.contains("put single files"), "\(put)")
        let one = try await setup.strata(["put", "--offline", tree.appendingPathComponent("one.txt").path, setup.url("x") + "/"])
        #expect(one.status == 0, "\(one)")
        let cancel = try await setup.strata(["rm", "--offline", setup.url("x/y")])
        #expect(cancel.status == 0, "\(cancel)")
        #expect(cancel.outputText.contains("createFolder \(folder)/x/y/z: made offline, nothing to send\n"), "\(cancel)")

        let pending = try await setup.strata(["pending", "--json", setup.base])
        let entries = try #require(try JSONSerialization.jsonObject(with: pending.output) as? [[String: Any]])
        #expect(entries.compactMap { $0["action"] as? String } == ["createFolder", "copy", "upload"])
        let replay = try await setup.strata(["replay", setup.base])
        #expect(replay.status == 0, "\(replay)")
        #expect(try await setup.content("x/a.txt") == "aaa")
        #expect(try await setup.content("x/one.txt") == "one")
        #expect(try await !setup.exists("x/y"))
        #expect(try await !setup.exists("tree"))
    }

    @Test("a file changed on the server in between is a conflict in replay and pending; resolve keeps mine or takes theirs")
    func conflictsResolved() async throws {
        let setup = try await Setup.start()
        defer { Task { await setup.stop() } }
        try await setup.serverWrite("a.txt", "first")
        try await setup.serverWrite("b.txt", "first")
        try await setup.browse()
        let folder = "/\(setup.folder)"

        let putA = try await setup.strata(["put", "--offline", try setup.file("a.txt", "mine-a"), setup.url("a.txt")])
        #expect(putA.status == 0, "\(putA)")
        let putB = try await setup.strata(["put", "--offline", try setup.file("b.txt", "mine-b"), setup.url("b.txt")])
        #expect(putB.status == 0, "\(putB)")
        let a = try Self.id(in: putA, "a.txt")
        let b = try Self.id(in: putB, "b.txt")
        // Meanwhile, someone else changes both on the server.
        try await setup.serverWrite("a.txt", "theirs-a!")
        try await setup.serverWrite("b.txt", "theirs-b!")

        let replay = try await setup.strata(["replay", setup.url()])
        #expect(replay.status == 1, "\(replay)")
        #expect(replay.outputText.contains("conflict #\(a) upload \(folder)/a.txt (6 bytes)\n    changed on the server: \(folder)/a.txt\n"))
        #expect(replay.outputText.contains("conflict #\(b) upload \(folder)/b.txt (6 bytes)\n"))
        #expect(replay.outputText.contains("    theirs: file, etag "))
        #expect(replay.outputText.contains(", 9 B, modified "))
        #expect(replay.outputText.contains("replayed 0, 2 in conflict, 0 failed, 0 held back; 2 waiting\n"), "\(replay)")
        // Nothing was overwritten.
        #expect(try await setup.content("a.txt") == "theirs-a!")
        #expect(try await setup.content("b.txt") == "theirs-b!")

        let pending = try await setup.strata(["pending", setup.base])
        #expect(pending.status == 0)
        #expect(pending.outputText.contains("#\(a)  conflict  "))
        #expect(pending.outputText.contains("    mine:   file, etag "))
        #expect(pending.outputText.hasSuffix("0 pending, 2 in conflict, 0 failed\n"), "\(pending)")
        let json = try await setup.strata(["pending", "--json", setup.base])
        let entries = try #require(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
        let conflict = try #require(entries.first?["conflict"] as? [String: Any])
        #expect(conflict["reason"] as? String == "changedOnServer")
        let mine = try #require(conflict["mine"] as? [String: Any])
        let theirs = try #require(conflict["theirs"] as? [String: Any])
        #expect(mine["size"] as? Int == 5)
        #expect(theirs["size"] as? Int == 9)
        #expect(mine["etag"] as? String != theirs["etag"] as? String)
        #expect(mine["modified"] != nil && theirs["modified"] != nil)
        #expect((conflict["mineContent"] as? [String: Any])?["size"] as? Int == 6)

        let keep = try await setup.strata(["resolve", a, setup.base, "--keep-mine"])
        #expect(keep.status == 0, "\(keep)")
        #expect(keep.outputText == "resolved #\(a) upload \(folder)/a.txt (6 bytes): kept mine as \(folder)/a (1).txt\n")
        #expect(try await setup.content("a.txt") == "theirs-a!")
        #expect(try await setup.content("a (1).txt") == "mine-a")

        let take = try await setup.strata(["resolve", b, setup.base, "--take-theirs", "--json"])
        #expect(take.status == 0, "\(take)")
        let result = try #require(try JSONSerialization.jsonObject(with: take.output) as? [String: Any])
        #expect(result["state"] as? String == "resolved")
        #expect(result["resolution"] as? String == "takeTheirs")
        #expect(try await setup.content("b.txt") == "theirs-b!")
        #expect(try await !setup.exists("b (1).txt"))

        #expect(try await setup.strata(["pending", setup.base]).outputText == "nothing pending\n")
        #expect(try await setup.strata(["replay", setup.base]).status == 0)
        let gone = try await setup.strata(["resolve", a, setup.base, "--drop"])
        #expect(gone.status != 0)
        #expect(gone.error.contains("no journal entry \(a)"))
        let none = try await setup.strata(["resolve", a, setup.base])
        #expect(none.status == 64, "a resolution is required: \(none)")
    }

    @Test("a write the server cannot take is journaled only with --queue-offline; replay needs the server")
    func queueOffline() async throws {
        let setup = try await Setup.start()
        defer { Task { await setup.stop() } }
        try await setup.serverWrite("a.txt", "first")
        try await setup.browse()
        await setup.cloud.stop()
        let folder = "/\(setup.folder)"

        let plain = try await setup.strata(["mkdir", setup.url("x")])
        #expect(plain.status != 0, "\(plain)")
        #expect(!plain.outputText.contains("pending"))
        #expect(try await setup.strata(["pending", setup.base]).outputText == "nothing pending\n")

        let queued = try await setup.strata(["mkdir", "--queue-offline", setup.url("x")])
        #expect(queued.status == 0, "\(queued)")
        #expect(queued.outputText.contains("createFolder \(folder)/x\n"))
        #expect(queued.error.contains("not written to the server"))
        let removed = try await setup.strata(["rm", "--queue-offline", "--json", setup.url("a.txt")])
        #expect(removed.status == 0, "\(removed)")
        let report = try #require(try JSONSerialization.jsonObject(with: removed.output) as? [String: [[String: Any]]])
        #expect(report["journal"]?.first?["change"] as? String == "recorded")
        #expect(report["journal"]?.first?["action"] as? String == "delete")

        let pending = try await setup.strata(["pending", setup.base])
        #expect(pending.outputText.hasSuffix("2 pending, 0 in conflict, 0 failed\n"), "\(pending)")
        let replay = try await setup.strata(["replay", setup.base])
        #expect(replay.status != 0, "\(replay)")
        #expect(try await setup.strata(["replay", "--offline", setup.base]).status == 64)
        #expect(try await setup.strata(["pending", setup.base]).outputText.hasSuffix("2 pending, 0 in conflict, 0 failed\n"))
    }
}

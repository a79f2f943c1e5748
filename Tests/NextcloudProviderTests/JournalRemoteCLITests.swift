import Foundation
import ProviderAPI
import ProviderKit
import StrataProcessKit
import Testing

/// A saved remote (`name:/path`) goes through the cache as a URL does: `--offline` reads and writes
/// never reach the server, writes are journaled, and the journal is replayed through the remote's name.
@Suite("strata's sync journal through a saved remote of the loopback Nextcloud server")
struct JournalRemoteCLITests {
    @Test("--offline put and ls through a saved remote send nothing to the server; pending and replay by the remote's name")
    func offlineThroughRemote() async throws {
        let setup = try await JournalCLITests.Setup.start()
        defer { Task { await setup.stop() } }
        try await setup.serverWrite("keep.txt", "keep")

        // strata's own home: a remotes.json naming the server, and the remote's credentials.
        let home = setup.local.appendingPathComponent("home")
        let config = home.appendingPathComponent(".config/strata")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let remotes = [SavedRemote(name: "cloud", kind: "nextcloud", url: setup.cloud.server.baseURL)]
        try JSONEncoder().encode(remotes).write(to: config.appendingPathComponent("remotes.json"))
        try await FileCredentialStore(url: config.appendingPathComponent("credentials.json"))
            .setCredentials(.basic(username: LoopbackNextcloud.user, password: LoopbackNextcloud.password), for: "cloud")
        let target = "cloud:/\(setup.folder)"
        func strata(_ arguments: [String]) async throws -> StrataRun {
            try await StrataProcess.run(
                [arguments[0], "--cache", setup.cache.path, "--retries", "0"] + arguments.dropFirst(),
                environment: ["HOME": home.path, "XDG_CONFIG_HOME": nil, "XDG_CACHE_HOME": nil, "STRATA_PASSWORD": nil, "STRATA_USER": nil])
        }

        let browse = try await strata(["ls", target])
        #expect(browse.status == 0 && browse.outputText.contains("keep.txt"), "\(browse)")

        let before = setup.cloud.server.requests().count
        let put = try await strata(["put", "--offline", try setup.file("local.txt", "local!"), "\(target)/local.txt"])
        #expect(put.status == 0 && put.outputText.hasPrefix("pending #"), "\(put)")
        #expect(put.outputText.contains("upload /\(setup.folder)/local.txt (6 bytes)"), "\(put)")
        let listed = try await strata(["ls", "--offline", target])
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.outputText.contains("local.txt  (pending #"), "\(listed)")
        #expect(setup.cloud.server.requests().count == before, "--offline asked the server: \(setup.cloud.server.requests().dropFirst(before))")
        #expect(try await !setup.exists("local.txt"))

        // Online, before the replay: the listing still shows the pending write.
        let online = try await strata(["ls", target])
        #expect(online.outputText.contains("local.txt  (pending #"), "\(online)")
        let pending = try await strata(["pending", "cloud:/"])
        #expect(pending.outputText.contains("upload /\(setup.folder)/local.txt (6 bytes)"), "\(pending)")

        let replay = try await strata(["replay", "cloud:/"])
        #expect(replay.status == 0, "\(replay)")
        #expect(replay.outputText.contains("replayed 1, 0 in conflict, 0 failed, 0 held back; 0 waiting\n"), "\(replay)")
        #expect(try await setup.content("local.txt") == "local!")
        let after = try await strata(["ls", target])
        #expect(after.outputText.contains("local.txt") && !after.outputText.contains("pending"), "\(after)")
    }
}

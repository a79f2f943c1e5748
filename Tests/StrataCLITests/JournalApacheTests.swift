import Foundation
import StrataProcessKit
import StrataTestSupport
import Testing

/// The sync journal's commands as the real binary against the Apache that `scripts/with-servers`
/// (and `scripts/test`) start on loopback. A missing server is a failure, never a skip.
@Suite("strata's sync journal against Apache", .liveServers)
struct JournalApacheTests {
    @Test("offline put, mkdir and rm replayed on Apache; the file changed there meanwhile is a conflict, kept under a new name")
    func replayOnApache() async throws {
        let server = try LiveWebDAVServer.named("apache")
        let (user, password) = (server.user, server.password)
        let base = server.url.absoluteString.replacingOccurrences(of: "http://", with: "webdav://").trimmingSuffix("/")
        let name = "journal-\(UInt32.random(in: 0...UInt32.max))"
        let url = "\(base)/\(name)"
        let folder = "/" + (server.url.path.split(separator: "/").map(String.init) + [name]).joined(separator: "/")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("journal-apache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        func file(_ name: String, _ text: String) throws -> String {
            let url = scratch.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
        func strata(_ arguments: [String], cache: Bool = true) async throws -> StrataRun {
            var common = ["-u", user, "--retries", "0", "--remotes", scratch.appendingPathComponent("none.json").path]
            if cache { common += ["--cache", scratch.appendingPathComponent("cache").path] }
            return try await StrataProcess.run([arguments[0]] + common + arguments.dropFirst(), environment: ["STRATA_PASSWORD": password])
        }
        func content(_ path: String) async throws -> String? {
            let run = try await strata(["get", "\(url)/\(path)", "-"], cache: false)
            return run.status == 0 ? run.outputText : nil
        }

        #expect(try await strata(["mkdir", url], cache: false).status == 0)
        defer { Task { _ = try? await strata(["rm", url], cache: false) } }
        #expect(try await strata(["put", try file("first.txt", "first"), "\(url)/a.txt"], cache: false).status == 0)
        #expect(try await strata(["put", try file("keep.txt", "keep"), "\(url)/keep.txt"], cache: false).status == 0)
        // Apache gives a file written less than a second ago a weak etag (W/"…"), and the strong one
        // later; the journal compares etags exactly, so the test caches the files once they are strong
        // (the weak/strong mismatch is a journal issue of its own, not this test's subject).
        for name in ["a.txt", "keep.txt"] {
            var strong = false
            for _ in 0..<50 where !strong {
                let stat = try await strata(["stat", "--json", "\(url)/\(name)"], cache: false)
                let item = try JSONSerialization.jsonObject(with: stat.output) as? [String: Any]
                strong = (item?["etag"] as? String).map { !$0.hasPrefix("W/") } ?? false
                if !strong { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(strong, "Apache kept a weak etag for \(name)")
        }
        #expect(try await strata(["ls", url]).status == 0)

        for arguments in [
            ["put", "--offline", try file("mine.txt", "mine"), "\(url)/a.txt"], ["mkdir", "--offline", "\(url)/new"],
            ["rm", "--offline", "\(url)/keep.txt"],
        ] {
            let run = try await strata(arguments)
            #expect(run.status == 0 && run.outputText.hasPrefix("pending #"), "\(run)")
        }
        #expect(try await content("keep.txt") == "keep")
        #expect(try await strata(["put", try file("theirs.txt", "theirs!!"), "\(url)/a.txt"], cache: false).status == 0)

        let replay = try await strata(["replay", url])
        #expect(replay.status == 1, "\(replay)")
        #expect(replay.outputText.contains("upload \(folder)/a.txt (4 bytes)\n    changed on the server: \(folder)/a.txt\n"), "\(replay)")
        #expect(replay.outputText.contains("replayed 2, 1 in conflict, 0 failed, 0 held back; 1 waiting\n"), "\(replay)")
        #expect(try await content("a.txt") == "theirs!!")
        #expect(try await content("keep.txt") == nil)
        #expect(try await strata(["stat", "\(url)/new"], cache: false).status == 0)

        let pending = try await strata(["pending", "--json", url])
        let entries = try #require(try JSONSerialization.jsonObject(with: pending.output) as? [[String: Any]])
        let id = try #require(entries.first?["id"] as? Int)
        let conflict = try #require(entries.first?["conflict"] as? [String: Any])
        #expect((conflict["mine"] as? [String: Any])?["size"] as? Int == 5)
        #expect((conflict["theirs"] as? [String: Any])?["size"] as? Int == 8)

        let keep = try await strata(["resolve", String(id), url, "--keep-mine"])
        #expect(keep.status == 0, "\(keep)")
        #expect(keep.outputText.hasSuffix("kept mine as \(folder)/a (1).txt\n"), "\(keep)")
        #expect(try await content("a%20(1).txt") == "mine")
        #expect(try await content("a.txt") == "theirs!!")
        #expect(try await strata(["pending", url]).outputText == "nothing pending\n")
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

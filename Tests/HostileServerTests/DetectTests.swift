import Foundation
import HostileTestServer
import Testing

/// Issue 30: `strata detect` says what it found — the adapter and that a sign-in is needed on a
/// server that refuses without one, and no empty verified profile before anything was verified.
@Suite("Hostile: strata detect says what it found")
struct DetectTests {
    @Test("a 401 with a DAV header or a WebDAV realm: webdav, sign-in needed",
        arguments: [
            ("1,2", #"Basic realm="files""#), (nil, #"Basic realm="WebDAV""#), (nil, #"Digest realm="Restricted DAV area", qop="auth""#),
        ] as [(String?, String)])
    func signInNeeded(_ dav: String?, _ challenge: String) async throws {
        try await Hostile.withServer(.signInWanted(dav: dav, challenge: challenge)) { server in
            let run = try await StrataCLI.run(["detect", "--retries", "0", server.url.absoluteString])
            #expect(run.status == 0, "\(run.error)")
            #expect(run.outputText.hasPrefix("webdav\t"), "\(run.outputText)")
            #expect(run.outputText.contains("sign-in needed"), "\(run.outputText)")
            #expect(!run.error.contains("no registered adapter"), "\(run.error)")

            let json = try await StrataCLI.run(["detect", "--json", "--retries", "0", server.url.absoluteString])
            let entries = try #require(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]], "\(json)")
            let webdav = try #require(entries.first { $0["kind"] as? String == "webdav" }, "\(json.outputText)")
            #expect(webdav["signInNeeded"] as? Bool == true, "\(json.outputText)")
        }
    }

    @Test("a 401 without a DAV header nor a WebDAV realm is not claimed")
    func plainLogin() async throws {
        try await Hostile.withServer(.signInWanted(dav: nil, challenge: #"Basic realm="intranet""#)) { server in
            let run = try await StrataCLI.run(["detect", "--retries", "0", server.url.absoluteString])
            #expect(run.status != 0)
            #expect(run.error.contains("no registered adapter"), "\(run.error)")
        }
    }

    @Test("detect --json before any write: the profile says 'not verified yet', not an empty verdict")
    func notVerifiedYet() async throws {
        try await Hostile.withServer(.unusableHrefs(emptyEntries: false)) { server in
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("detect-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let run = try await StrataCLI.run(
                ["detect", "--json", "--retries", "0", "--cache", scratch.appendingPathComponent("cache").path, server.url.absoluteString])
            #expect(run.status == 0, "\(run.error)")
            let entries = try #require(try JSONSerialization.jsonObject(with: run.output) as? [[String: Any]], "\(run)")
            let webdav = try #require(entries.first { $0["kind"] as? String == "webdav" }, "\(run.outputText)")
            let profile = try #require(webdav["profile"] as? [String: Any], "\(run.outputText)")
            #expect(profile["verified"] as? String == "not verified yet", "\(run.outputText)")
            #expect(webdav["verification"] as? String == "not verified yet", "\(run.outputText)")
        }
    }
}

import Foundation
import StrataProcessKit
import StrataTestSupport
import Testing

/// `strata detect --verify` against the Apache that `scripts/with-servers` starts: the verifier
/// runs on demand, prints its verdict, and leaves no scratch folder behind.
@Suite("strata detect --verify against Apache", .liveServers)
struct DetectVerifyApacheTests {
    @Test("detect --verify prints a complete verdict and removes its scratch folder")
    func verifyOnApache() async throws {
        let server = try LiveWebDAVServer.named("apache")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("detect-verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let common = [
            "-u", server.user, "--retries", "0", "--remotes", scratch.appendingPathComponent("none.json").path,
            "--cache", scratch.appendingPathComponent("cache").path,
        ]
        let environment = ["STRATA_PASSWORD": server.password]
        // A folder of its own: the other live suites verify the same server at the same time, and
        // their scratch folders come and go in its root.
        let folder = "detect-\(UInt64.random(in: 0...UInt64.max))"
        let base = server.url.absoluteString.replacingOccurrences(of: "http://", with: "webdav://")
        let made = try await StrataProcess.run(["mkdir"] + common + [base + folder], environment: environment)
        #expect(made.status == 0, "\(made.error)")
        let url = server.url.appendingPathComponent(folder, isDirectory: true).absoluteString
        let run = try await StrataProcess.run(["detect"] + common + ["--verify", url], environment: environment)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.outputText.contains("webdav: verified"), "\(run.outputText)")
        #expect(run.outputText.contains("refusesStaleIfMatch: yes"), "\(run.outputText)")

        let listing = try await StrataProcess.run(["ls"] + common + [base + folder + "/"], environment: environment)
        #expect(listing.status == 0, "\(listing.error)")
        #expect(!listing.outputText.contains("strata-verify-"), "\(listing.outputText)")
    }
}

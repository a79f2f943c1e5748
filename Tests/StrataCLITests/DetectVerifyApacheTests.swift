import Foundation
import StrataProcessKit
import StrataTestSupport
import Testing

/// `strata detect --verify` against the Apache that `scripts/with-servers` starts: the verifier
/// runs on demand, prints its verdict, and leaves no scratch folder behind.
@Suite("strata detect --verify against Apache")
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
        let run = try await StrataProcess.run(["detect"] + common + ["--verify", server.url.absoluteString], environment: environment)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.outputText.contains("webdav: verified"), "\(run.outputText)")
        #expect(run.outputText.contains("refusesStaleIfMatch: yes"), "\(run.outputText)")

        let base = server.url.absoluteString.replacingOccurrences(of: "http://", with: "webdav://")
        let listing = try await StrataProcess.run(["ls"] + common + [base], environment: environment)
        #expect(listing.status == 0, "\(listing.error)")
        #expect(!listing.outputText.contains("strata-verify-"), "\(listing.outputText)")
    }
}

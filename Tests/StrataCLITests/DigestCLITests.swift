import Foundation
import StrataProcessKit
import StrataTestSupport
import Testing

/// The `strata` command against the Digest-protected Apache location that `scripts/with-servers`
/// starts (`STRATA_APACHE_DIGEST_URL`): a user name and `STRATA_PASSWORD` sign in whatever the
/// scheme, and a wrong password is the unauthorized message, once.
@Suite("strata over HTTP Digest against Apache (Digest)", .liveServers)
struct DigestCLITests {
    private func common(_ user: String, _ scratch: URL) -> [String] {
        [
            "-u", user, "--retries", "0", "--remotes", scratch.appendingPathComponent("none.json").path,
            "--cache", scratch.appendingPathComponent("cache").path,
        ]
    }

    @Test("mkdir and ls with --user and STRATA_PASSWORD; -o auth=digest refuses the Basic root; a wrong password is unauthorized")
    func lsOverDigest() async throws {
        let server = try LiveWebDAVServer.named("apache_digest")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("digest-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let common = common(server.user, scratch)
        let environment = ["STRATA_PASSWORD": server.password]
        let folder = "cli-\(UInt64.random(in: 0...UInt64.max))"
        let base = server.url.absoluteString.replacingOccurrences(of: "http://", with: "webdav://")

        let made = try await StrataProcess.run(["mkdir"] + common + [base + folder], environment: environment)
        #expect(made.status == 0, "\(made.error)")
        // Twice: the second run starts from what the cache remembers (Digest, no Basic first).
        for _ in 0..<2 {
            let listing = try await StrataProcess.run(["ls"] + common + [base], environment: environment)
            #expect(listing.status == 0, "\(listing.error)")
            #expect(listing.outputText.contains(folder), "\(listing.outputText)")
        }
        // The provider's root is the origin, which this Apache protects with Basic: a first run
        // (no profile kept in its cache) probes it, and auth=digest refuses it, and says so,
        // without sending the password. (A run with the profile kept sends no probe: it asks the
        // Digest location itself, in Digest.)
        let fresh = self.common(server.user, scratch.appendingPathComponent("fresh", isDirectory: true))
        let digestOnly = try await StrataProcess.run(["ls"] + fresh + ["-o", "auth=digest", base], environment: environment)
        #expect(digestOnly.status != 0)
        #expect(digestOnly.error.contains("auth=digest"), "\(digestOnly.error)")

        let secret = "wrong-\(UInt32.random(in: 0...UInt32.max))"
        let refused = try await StrataProcess.run(["ls"] + common + [base], environment: ["STRATA_PASSWORD": secret])
        #expect(refused.status != 0)
        #expect(refused.error.contains("refused the credentials"), "\(refused.error)")
        #expect(!refused.error.contains(secret) && !refused.outputText.contains(secret))

        _ = try? await StrataProcess.run(["rm"] + common + [base + folder], environment: environment)
    }
}

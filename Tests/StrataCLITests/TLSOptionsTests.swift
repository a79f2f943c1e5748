import Foundation
import StrataProcessKit
import StrataTestSupport
import Testing

/// `--ca-cert` and `--disable-http2` as the real binary, against the nginx over TLS that
/// `scripts/with-servers` starts (its certificate signed by the throw-away `STRATA_TEST_CA`).
@Suite("strata --ca-cert and --disable-http2 over TLS", .liveServers)
struct TLSOptionsTests {
    /// The TLS nginx as the CLI names it (`webdavs://`), and the environment of its login.
    private struct Target {
        let server: LiveTLSServer
        let url: String
        let authority: String
        let environment: [String: String?]

        init() throws {
            server = try LiveTLSServer.nginx()
            url = server.url.absoluteString.replacingOccurrences(of: "https://", with: "webdavs://")
            authority = server.authority.path
            environment = ["STRATA_USER": server.user, "STRATA_PASSWORD": server.password, "STRATA_KEYRING": "off"]
        }

        func protocols(of marker: String) throws -> Set<String> { Set(try server.protocols(of: marker)) }
    }

    @Test("--ca-cert trusts the server's authority: mkdir and ls work, over HTTP/2; --disable-http2 keeps HTTP/1.1")
    func trusted() async throws {
        let target = try Target()
        let h2 = "cli-h2-\(UInt32.random(in: 0...UInt32.max))"
        let made = try await StrataProcess.run(["mkdir", "--ca-cert", target.authority, target.url + h2], environment: target.environment)
        #expect(made.status == 0, "\(made)")
        let listed = try await StrataProcess.run(["ls", "--ca-cert", target.authority, target.url], environment: target.environment)
        #expect(listed.status == 0 && listed.outputText.contains(h2), "\(listed)")
        #expect(try target.protocols(of: h2) == ["HTTP/2.0"])

        let h1 = "cli-h1-\(UInt32.random(in: 0...UInt32.max))"
        let plain = try await StrataProcess.run(
            ["mkdir", "--ca-cert", target.authority, "--disable-http2", target.url + h1], environment: target.environment)
        #expect(plain.status == 0, "\(plain)")
        #expect(try target.protocols(of: h1) == ["HTTP/1.1"])
        for name in [h1, h2] {
            let removed = try await StrataProcess.run(["rm", "--ca-cert", target.authority, target.url + name], environment: target.environment)
            #expect(removed.status == 0, "\(removed)")
        }
    }

    @Test("without --ca-cert the certificate is refused with its reason, and nothing is sent")
    func untrusted() async throws {
        let target = try Target()
        let marker = "cli-untrusted-\(UInt32.random(in: 0...UInt32.max))"
        let run = try await StrataProcess.run(["mkdir", "--retries", "0", target.url + marker], environment: target.environment)
        #expect(run.status != 0)
        #expect(run.error.lowercased().contains("certificate"), "\(run)")
        #expect(try target.protocols(of: marker).isEmpty)
    }

    @Test("--ca-cert with a file that is not a certificate stops before any request, naming the file")
    func badFile() async throws {
        let target = try Target()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("strata-not-a-ca-\(UUID().uuidString).pem")
        try Data("not a certificate".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let marker = "cli-badca-\(UInt32.random(in: 0...UInt32.max))"
        let run = try await StrataProcess.run(["mkdir", "--ca-cert", file.path, target.url + marker], environment: target.environment)
        #expect(run.status != 0)
        #expect(run.error.contains("--ca-cert") && run.error.contains(file.path), "\(run)")
        #expect(try target.protocols(of: marker).isEmpty)
    }
}

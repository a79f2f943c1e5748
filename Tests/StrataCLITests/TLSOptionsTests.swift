import Foundation
import StrataProcessKit
import StrataTestSupport
import Testing

/// `--ca-cert` and `--disable-http2` as the real binary, against the nginx over TLS that
/// `scripts/with-servers` starts (its certificate signed by the throw-away `STRATA_TEST_CA`).
@Suite("strata --ca-cert and --disable-http2 over TLS", .liveServers)
struct TLSOptionsTests {
    private struct Target {
        let url: String
        let authority: String
        let log: URL
        let environment: [String: String?]

        init() throws {
            let environment = ProcessInfo.processInfo.environment
            let nginx = try LiveWebDAVServer.named("nginx")
            guard let https = environment["STRATA_NGINX_TLS_URL"], let authority = environment["STRATA_TEST_CA"],
                let log = environment["STRATA_NGINX_TLS_LOG"]
            else {
                Issue.record("STRATA_NGINX_TLS_URL, STRATA_TEST_CA and STRATA_NGINX_TLS_LOG are not set: run with scripts/with-servers")
                throw CancellationError()
            }
            url = https.replacingOccurrences(of: "https://", with: "webdavs://")
            self.authority = authority
            self.log = URL(fileURLWithPath: log)
            self.environment = ["STRATA_USER": nginx.user, "STRATA_PASSWORD": nginx.password, "STRATA_KEYRING": "off"]
        }

        func protocols(of marker: String) throws -> Set<String> {
            let text = try String(contentsOf: log, encoding: .utf8)
            return Set(text.split(separator: "\n").filter { $0.contains(marker) }.compactMap { $0.split(separator: " ").last.map(String.init) })
        }
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

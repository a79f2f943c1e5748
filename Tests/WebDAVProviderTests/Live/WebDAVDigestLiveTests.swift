import Foundation
import HTTPProviderKit
import ProviderAPI
import ProviderConformance
import ProviderConformanceTesting
import ProviderTesting
import SharedCacheConformance
import StrataTestSupport
import Testing
import WebDAVProvider

/// WebDAV behind HTTP Digest on the real servers `scripts/test` starts: Apache `mod_auth_digest`
/// (MD5, `qop=auth`) at `STRATA_APACHE_DIGEST_URL` and lighttpd (SHA-256, `userhash`) at
/// `STRATA_LIGHTTPD_DIGEST_URL`, with the same account as the Basic servers.
@Suite("WebDAV over HTTP Digest on real servers (Digest)", .liveServers)
struct WebDAVDigestLiveTests {
    static let names = ["apache_digest", "lighttpd_digest"]

    @Test("conformance suite over Digest", arguments: names)
    func conformance(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let suite = ConformanceSuite(
            subject: "WebDAV over Digest on \(serverName) \(server.url)",
            cases: ConformanceCatalog.standard + SharedCacheConformance.offline + SharedCacheConformance.journal
        ) { environment in
            try await WebDAVProvider.connect(LiveServers.configuration(server, transport: environment.transport))
        }
        let report = await suite.run()
        print(report.text)
        report.recordIssues()
        report.recordUnexcusedSkips()
        #expect(report.counts.failed == 0)
        #expect(report.counts.passed > 40)
    }

    @Test("a user name and password sign in: Basic once, then Digest only, with the server's algorithm", arguments: names)
    func signsInWithDigest(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let recorder = RecordingTransport(passingTo: AsyncHTTPClientTransport.shared)
        let provider = try await WebDAVProvider.connect(LiveServers.configuration(server, transport: recorder))
        let name = "digest-\(UInt64.random(in: 0...UInt64.max))"
        _ = try await provider.createFolder(named: name, in: .root)
        let folder = try ItemPath("/\(name)")
        // A name with a space: the uri must be the request-target as sent, percent-encoded.
        let file = try folder.appending("a b.txt")
        _ = try await provider.upload(data: Data("digest body".utf8), to: file)
        #expect(try await provider.listAll(folder).map(\.name) == ["a b.txt"])
        #expect(try await provider.data(at: file) == Data("digest body".utf8))
        try await provider.delete(folder)

        let requests = recorder.requests
        let sent = requests.map { $0.headers.first(name: "Authorization") ?? "" }
        #expect(sent.first?.hasPrefix("Basic ") == true, "the first request goes with Basic (the default policy)")
        // After the challenge, Digest only. The one request that may go without credentials is the
        // bodiless OPTIONS that fetches a fresh nonce before a one-shot upload, when the nonce in
        // hand is older than a minute (a busy machine): it carries no password at all.
        let afterChallenge = zip(requests, sent).dropFirst()
        let shown = zip(requests, sent).map { "\($0.method.rawValue) \($1.prefix(7))" }
        #expect(
            afterChallenge.allSatisfy { request, header in
                header.hasPrefix("Digest ") || (header.isEmpty && request.method == .OPTIONS && request.body == nil)
            },
            "after the challenge, Digest only: \(shown)")
        #expect(!sent.dropFirst().contains { $0.hasPrefix("Basic") }, "Basic is never sent again: \(shown)")
        let last = try #require(sent.last)
        let fields = try #require(AuthChallenge.parse([last]).first)
        if serverName == "lighttpd_digest" {
            #expect(fields["algorithm"] == "SHA-256")
            #expect(fields["userhash"] == "true")
            #expect(fields["username"] != server.user)
        } else {
            #expect(fields["username"] == server.user)
        }
    }

    @Test("auth=digest never sends the password in Basic", arguments: names)
    func digestOnly(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let recorder = RecordingTransport(passingTo: AsyncHTTPClientTransport.shared)
        var configuration = LiveServers.configuration(server, transport: recorder)
        configuration.options = ["auth": "digest"]
        let provider = try await WebDAVProvider.connect(configuration)
        #expect(try await provider.item(at: .root).kind == .folder)
        let sent = recorder.requests.map { $0.headers.first(name: "Authorization") }
        #expect(sent.first == .some(nil), "the first request carries no credentials")
        #expect(!sent.contains { $0?.hasPrefix("Basic") == true })
    }

    @Test("auth=digest refuses a Basic server without sending the password")
    func digestOnlyRefusesBasic() async throws {
        let server = try LiveServers.server("apache")
        let recorder = RecordingTransport(passingTo: AsyncHTTPClientTransport.shared)
        var configuration = LiveServers.configuration(server, transport: recorder)
        configuration.options = ["auth": "digest"]
        let error = await #expect(throws: ProviderError.self) { try await WebDAVProvider.connect(configuration) }
        #expect(error?.code == .unauthorized)
        #expect(!recorder.requests.contains { $0.headers.first(name: "Authorization") != nil })
    }

    @Test("a wrong password is unauthorized after one Digest answer, never a loop", arguments: names)
    func wrongPassword(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let secret = "wrong-\(UInt32.random(in: 0...UInt32.max))"
        let recorder = RecordingTransport(passingTo: AsyncHTTPClientTransport.shared)
        let provider = try WebDAVProvider(
            configuration: LiveServers.configuration(
                server, transport: recorder, credentials: .basic(username: server.user, password: secret)))
        let error = await #expect(throws: ProviderError.self) { try await provider.item(at: .root) }
        #expect(error?.code == .unauthorized)
        #expect(error?.httpStatus == 401)
        #expect(!(error?.description.contains(secret) ?? true))
        #expect(recorder.requests.count == 2, "Basic, then one Digest answer")
        _ = try? await provider.item(at: .root)
        #expect(recorder.requests.count == 3, "a refused nonce is not answered again")
    }

    @Test("a server seen to want Digest is remembered: the next connection sends no password before its challenge")
    func remembered() async throws {
        let server = try LiveServers.server("apache_digest")
        let store = MemoryFactStore()
        var first = LiveServers.configuration(server)
        first.serverFacts = store
        _ = try await WebDAVProvider.connect(first).item(at: .root)
        #expect(store.all.contains { $0.kind == "webdav.auth" })

        let recorder = RecordingTransport(passingTo: AsyncHTTPClientTransport.shared)
        var second = LiveServers.configuration(server, transport: recorder)
        second.serverFacts = store
        _ = try await WebDAVProvider.connect(second).item(at: .root)
        let sent = recorder.requests.map { $0.headers.first(name: "Authorization") }
        #expect(sent.first == .some(nil))
        #expect(!sent.contains { $0?.hasPrefix("Basic") == true })
    }
}

import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI
import ProviderKit
import StrataProcessKit
import Testing

/// `strata logout` of an OAuth2 login against the real authorization server (django-oauth-toolkit,
/// `STRATA_OAUTH_URL`): the tokens are revoked there (RFC 7009) before the login is forgotten.
@Suite("strata logout revokes an OAuth2 login (django-oauth-toolkit)", .liveServers)
struct OAuth2LogoutTests {
    /// A config folder holding one remote, `work`, and its OAuth2 login in credentials.json.
    private struct Home {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-oauth-logout-\(UUID().uuidString)", isDirectory: true)
        var config: URL { folder.appendingPathComponent("strata", isDirectory: true) }
        var environment: [String: String?] {
            ["XDG_CONFIG_HOME": folder.path, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path, "STRATA_KEYRING": "file"]
        }

        init(login: Credentials, options: [String: String]) async throws {
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            let registry = ProviderRegistry()
            registry.addRemote(SavedRemote(name: "work", kind: "nextcloud", url: URL(string: "nextcloud://127.0.0.1:9/remote.php/dav/files/u/")!, options: options))
            try registry.saveRemotes(to: config.appendingPathComponent("remotes.json"))
            try await FileCredentialStore(url: config.appendingPathComponent("credentials.json")).setCredentials(login, for: "work")
        }

        func saved() async throws -> Credentials? {
            try await FileCredentialStore(url: config.appendingPathComponent("credentials.json")).credentials(for: "work")
        }

        func run(_ arguments: [String]) async throws -> StrataRun {
            try await StrataProcess.run(arguments, environment: environment)
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test("with -o oauth2.revoke-url saved with the remote: both tokens are revoked, then the login is forgotten")
    func revokes() async throws {
        let live = try OAuthLive()
        let login = try await live.passwordGrant()
        let refresh = try #require(login.refreshToken)
        let access = try #require(login.accessToken)
        #expect(try await live.isActive(access))
        let home = try await Home(login: login, options: ["oauth2.revoke-url": live.endpoint("revoke_token").absoluteString])
        defer { home.remove() }

        let run = try await home.run(["logout", "work"])
        #expect(run.status == 0, "\(run)")
        #expect(run.outputText.contains("tokens revoked on the server"), "\(run)")
        #expect(try await home.saved() == nil)
        #expect(try await live.isActive(access) == false, "the access token still works")
        guard case .refused(let error, _, _) = try await live.testsClient().refresh(refresh) else {
            Issue.record("the refresh token still works after logout")
            return
        }
        #expect(error == "invalid_grant")
        #expect(!(run.outputText + run.error).contains(refresh) && !(run.outputText + run.error).contains(access))
    }

    @Test("without a revocation endpoint: forgotten here, and the command says the tokens still work")
    func noEndpoint() async throws {
        let live = try OAuthLive()
        let login = try await live.passwordGrant()
        let home = try await Home(login: login, options: [:])
        defer { home.remove() }
        let run = try await home.run(["logout", "work"])
        #expect(run.status == 0, "\(run)")
        #expect(run.outputText.contains("NOT revoked"), "\(run)")
        #expect(try await home.saved() == nil)
        #expect(try await live.isActive(try #require(login.accessToken)))
    }

    @Test("a revocation endpoint that fails: the login stays saved unless --force; the tokens are untouched")
    func endpointFails() async throws {
        let live = try OAuthLive()
        let login = try await live.passwordGrant()
        // Port 9 (discard) on loopback: nothing listens.
        let home = try await Home(login: login, options: ["oauth2.revoke-url": "http://127.0.0.1:9/o/revoke_token/"])
        defer { home.remove() }
        let refused = try await home.run(["logout", "work", "--retries", "0"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("could not revoke the OAuth2 tokens") && refused.error.contains("stays saved"), "\(refused)")
        #expect(try await home.saved() == login)
        let forced = try await home.run(["logout", "work", "--force", "--retries", "0"])
        #expect(forced.status == 0, "\(forced)")
        #expect(forced.outputText.contains("NOT revoked"), "\(forced)")
        #expect(try await home.saved() == nil)
        #expect(try await live.isActive(try #require(login.accessToken)))
    }

    @Test("a wrong client secret: the server's refusal is the error, the login stays saved")
    func refusedClient() async throws {
        let live = try OAuthLive()
        let issued = try await live.passwordGrant()
        let wrongClient = Credentials.oauth2(
            accessToken: try #require(issued.accessToken), refreshToken: issued.refreshToken, expiresAt: issued.expiresAt,
            tokenURL: try #require(issued.tokenURL), clientID: "strata-tests", clientSecret: "not-the-secret")
        let home = try await Home(login: wrongClient, options: ["oauth2.revoke-url": live.endpoint("revoke_token").absoluteString])
        defer { home.remove() }
        let refused = try await home.run(["logout", "work"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("HTTP 401"), "\(refused)")
        #expect(!refused.error.contains("not-the-secret"))
        #expect(try await home.saved() == wrongClient)
        #expect(try await live.isActive(try #require(issued.accessToken)))
    }
}

extension OAuthLive {
    /// Whether the authorization server still takes `token` (its introspection endpoint, RFC 7662).
    func isActive(_ token: String) async throws -> Bool {
        var request = TransportRequest(
            method: .POST, url: endpoint("introspect"),
            headers: [
                "Content-Type": "application/x-www-form-urlencoded",
                "Authorization": "Basic " + Data("strata-resource:\(password)".utf8).base64EncodedString(),
            ],
            body: .bytes(ByteBuffer(string: OAuth2Form.encode(["token": token]))))
        request.carriesCredentials = true
        let response = try await AsyncHTTPClientTransport.shared.send(request)
        let body = try await response.body.collect(upTo: 1 << 16)
        try #require(response.status == 200, "introspection answered \(response.status)")
        let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
        return object?["active"] as? Bool == true
    }
}

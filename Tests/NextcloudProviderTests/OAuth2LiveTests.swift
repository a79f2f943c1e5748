import Foundation
import HTTPProviderKit
import NIOCore
import NextcloudTestServer
import ProviderAPI
import ProviderConformance
import ProviderConformanceTesting
import StrataTestSupport
import Testing
import WebDAVProvider

/// OAuth2 logins against a real authorization server (django-oauth-toolkit, `STRATA_OAUTH_URL`,
/// started by `scripts/test` / `scripts/with-servers`) in front of the loopback Nextcloud, which
/// checks every bearer token at its introspection endpoint: renewal before expiry, rotation
/// saved back, revocation, one renewal for many requests, and the conformance suite over OAuth2.
@Suite("OAuth2 with refresh against django-oauth-toolkit", .liveServers)
struct OAuth2LiveTests {
    @Test("an access token past its expiry is renewed before the request: no 401, the new login saved")
    func renewedBeforeExpiry() async throws {
        let live = try OAuthLive()
        let cloud = try await live.startCloud()
        defer { Task { await cloud.stop() } }
        let issued = try await live.passwordGrant()
        let expired = live.expired(issued)
        let wire = TokenWire()
        let saved = SavedLogins()
        let provider = try await live.provider(cloud, credentials: expired, wire: wire, saved: saved)
        _ = try await provider.list(.root, page: PageRequest())
        #expect(wire.statuses.contains(401) == false, "a 401 was seen: the token was not renewed before the request")
        #expect(wire.tokenRequests == 1)
        let renewed = try #require(saved.last)
        #expect(renewed.kind == .oauth2)
        #expect(renewed.accessToken != issued.accessToken)
        #expect(renewed.refreshToken != nil && renewed.refreshToken != issued.refreshToken)
        #expect((renewed.expiresAt ?? .distantPast) > Date())
        #expect(renewed.tokenURL == issued.tokenURL && renewed.clientID == issued.clientID)
    }

    @Test("the rotated refresh token is saved into the remote's store; the old one is refused by the server")
    func rotationSavedBack() async throws {
        let live = try OAuthLive()
        let cloud = try await live.startCloud()
        defer { Task { await cloud.stop() } }
        let issued = try await live.passwordGrant()
        let registry = ProviderRegistry()
        registry.register(OwnCloudProviderFactory(flavor: .nextcloud))
        registry.addRemote(SavedRemote(name: "work", kind: "nextcloud", url: live.davURL(cloud)))
        let store = InMemoryCredentialStore()
        try await store.setCredentials(live.expired(issued), for: "work")
        let provider = try await registry.provider(remote: "work", store: store)
        _ = try await provider.list(.root, page: PageRequest())
        let stored = try #require(try await store.credentials(for: "work"))
        let rotated = try #require(stored.refreshToken)
        #expect(rotated != issued.refreshToken)
        // The real server refuses the spent refresh token and takes the saved one.
        let client = live.testsClient()
        guard case .refused(let error, _, _) = try await client.refresh(try #require(issued.refreshToken)) else {
            Issue.record("the old refresh token was accepted again")
            return
        }
        #expect(error == "invalid_grant")
        guard case .tokens = try await client.refresh(rotated) else {
            Issue.record("the saved refresh token was refused")
            return
        }
    }

    @Test("a login revoked at the server fails unauthorized with the server's reason after one token request, and stays failed")
    func revocation() async throws {
        let live = try OAuthLive()
        let cloud = try await live.startCloud()
        defer { Task { await cloud.stop() } }
        let issued = try await live.passwordGrant()
        let wire = TokenWire()
        let provider = try await live.provider(cloud, credentials: issued, wire: wire, saved: SavedLogins())
        _ = try await provider.list(.root, page: PageRequest())
        #expect(wire.tokenRequests == 0)
        try await live.revoke(try #require(issued.refreshToken), hint: "refresh_token")
        let error = await #expect(throws: ProviderError.self) { try await provider.list(.root, page: PageRequest()) }
        #expect(error?.code == .unauthorized)
        #expect(error?.message?.contains("invalid_grant") == true, "\(String(describing: error))")
        #expect(wire.tokenRequests == 1)
        // The refusal is remembered: no second token request, no loop.
        let again = await #expect(throws: ProviderError.self) { try await provider.item(at: .root) }
        #expect(again?.code == .unauthorized)
        #expect(wire.tokenRequests == 1)
        // No token in what the user sees.
        for text in [String(describing: error), String(describing: again)] {
            #expect(!text.contains(issued.accessToken ?? "-") && !text.contains(issued.refreshToken ?? "-"))
        }
    }

    @Test("many requests at once with an expired token make one token request")
    func concurrentRenewal() async throws {
        let live = try OAuthLive()
        let cloud = try await live.startCloud()
        defer { Task { await cloud.stop() } }
        let expired = live.expired(try await live.passwordGrant())
        let wire = TokenWire()
        var services = ProviderServices.transport(wire)
        services.credentialsRenewed = { _ in }
        let configuration = ProviderConfiguration(url: live.davURL(cloud), credentials: expired, services: services)
        let executor = RequestExecutor(configuration: configuration)
        let url = live.davURL(cloud)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<24 {
                group.addTask {
                    let response = try await executor.execute(TransportRequest(method: .init(rawValue: "PROPFIND"), url: url, headers: ["Depth": "0"]))
                    await response.body.discard()
                    return response.status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 24 && statuses.allSatisfy { $0 == 207 }, "\(statuses)")
        #expect(wire.tokenRequests == 1)
        #expect(!wire.statuses.contains(401))
    }

    @Test("the conformance suite over OAuth2 (bearer tokens checked by introspection)")
    func conformance() async throws {
        let live = try OAuthLive()
        let cloud = try await live.startCloud()
        let login = try await live.passwordGrant()
        let root = try await live.provider(cloud, credentials: login, wire: TokenWire(), saved: SavedLogins())
        let name = "conformance-\(UInt32.random(in: 0...UInt32.max))"
        _ = try await root.createFolder(named: name, in: .root)
        let options = ["chunkSize": String(1 << 20), "chunkThreshold": String(2 << 20)]
        let suite = ConformanceSuite(subject: "nextcloud dialect over OAuth2", cases: ConformanceCatalog.standard) { environment in
            var services = ProviderServices.transport(environment.transport)
            services.credentialsRenewed = { _ in }
            return try await OwnCloudProviderFactory(flavor: .nextcloud).connect(ProviderConfiguration(
                url: live.davURL(cloud, folder: name), credentials: login, services: services, options: options))
        }
        let report = await suite.run()
        await cloud.stop()
        print(report.text)
        report.recordIssues()
        #expect(report.counts.failed == 0)
        #expect(report.counts.passed > 40)
    }
}

/// The authorization server of the live tests and the loopback Nextcloud in front of it.
struct OAuthLive {
    let base: URL
    let user: String
    let password: String

    init(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["STRATA_OAUTH_URL"], let base = URL(string: text),
            let user = environment["STRATA_DAV_USER"], let password = environment["STRATA_DAV_PASS"]
        else {
            Issue.record(
                "STRATA_OAUTH_URL, STRATA_DAV_USER and STRATA_DAV_PASS are not set: run the tests with scripts/test or scripts/with-servers",
                sourceLocation: sourceLocation)
            throw ProviderError(.network, "no OAuth2 server")
        }
        self.base = base
        self.user = user
        self.password = password
    }

    func endpoint(_ path: String) -> URL { base.appendingPathComponent("o").appendingPathComponent(path).appendingPathComponent("") }

    var tokenURL: URL { URL(string: base.absoluteString + "o/token/") ?? base }

    /// The confidential client the tests get tokens with (the secret is the servers' password).
    func testsClient() -> OAuth2TokenClient {
        OAuth2TokenClient(
            tokenURL: tokenURL, clientID: "strata-tests", clientSecret: password, transport: AsyncHTTPClientTransport.shared,
            logger: .init(label: "test"))
    }

    /// A fresh login of the test user, without a browser (resource owner password grant).
    func passwordGrant() async throws -> Credentials {
        let client = testsClient()
        let answer = try await client.request(["grant_type": "password", "username": user, "password": password])
        guard case .tokens(let tokens) = answer else { throw ProviderError(.unauthorized, "no tokens: \(answer)") }
        return tokens.credentials(client: client, now: Date())
    }

    /// `login` as a later process sees it once the access token has expired.
    func expired(_ login: Credentials) -> Credentials {
        .oauth2(
            accessToken: login.accessToken ?? "", refreshToken: login.refreshToken, expiresAt: Date().addingTimeInterval(-30),
            tokenURL: login.tokenURL ?? tokenURL, clientID: login.clientID ?? "", clientSecret: login.clientSecret)
    }

    /// Revokes `token` at the server's revocation endpoint (RFC 7009).
    func revoke(_ token: String, hint: String) async throws {
        var request = TransportRequest(
            method: .POST, url: URL(string: base.absoluteString + "o/revoke_token/") ?? base,
            headers: [
                "Content-Type": "application/x-www-form-urlencoded",
                "Authorization": "Basic " + Data("strata-tests:\(password)".utf8).base64EncodedString(),
            ],
            body: .bytes(ByteBuffer(string: OAuth2Form.encode(["token": token, "token_type_hint": hint]))))
        request.carriesCredentials = true
        let response = try await AsyncHTTPClientTransport.shared.send(request)
        await response.body.discard()
        #expect(response.status == 200)
    }

    /// A loopback Nextcloud whose user is the test user, checking bearer tokens at the server.
    func startCloud() async throws -> NextcloudTestServer {
        var configuration = NextcloudTestServer.Configuration(users: [user: "not-\(password)"])
        configuration.introspection = .init(
            url: URL(string: base.absoluteString + "o/introspect/") ?? base, clientID: "strata-resource", clientSecret: password)
        return try await NextcloudTestServer.start(configuration)
    }

    func davURL(_ cloud: NextcloudTestServer, folder: String = "") -> URL {
        let text = cloud.baseURL.absoluteString.trimmingSuffix("/") + "/remote.php/dav/files/\(user)/" + folder
        return URL(string: text) ?? cloud.baseURL
    }

    func provider(
        _ cloud: NextcloudTestServer, credentials: Credentials, wire: TokenWire, saved: SavedLogins
    ) async throws -> any StorageProvider {
        var services = ProviderServices.transport(wire)
        services.credentialsRenewed = { saved.append($0) }
        return try await OwnCloudProviderFactory(flavor: .nextcloud).connect(
            ProviderConfiguration(url: davURL(cloud), credentials: credentials, services: services))
    }
}

/// Passes requests on and counts what the tests look at: token requests, statuses seen.
final class TokenWire: HTTPTransport {
    private let seen = OAuthTestLock<(tokens: Int, statuses: [Int])>((0, []))

    var tokenRequests: Int { seen.withLockedValue { $0.tokens } }
    var statuses: [Int] { seen.withLockedValue { $0.statuses } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if request.url.absoluteString.hasSuffix("/o/token/") { seen.withLockedValue { $0.tokens += 1 } }
        let response = try await AsyncHTTPClientTransport.shared.send(request)
        seen.withLockedValue { $0.statuses.append(response.status) }
        return response
    }
}

/// The credentials handed to `credentialsRenewed`, in order.
final class SavedLogins: Sendable {
    private let logins = OAuthTestLock<[Credentials]>([])
    func append(_ login: Credentials) { logins.withLockedValue { $0.append(login) } }
    var last: Credentials? { logins.withLockedValue { $0.last } }
}

/// A value behind a lock.
private final class OAuthTestLock<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLockedValue<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

import Foundation
import HTTPProviderKit
import NIOCore
import NIOHTTP1
import ProviderAPI
import StrataTestSupport
import Testing

/// The sign-in flows of `strata login --oauth2` against django-oauth-toolkit, the test acting as
/// the browser and the user: it signs the test user in to Django, then follows the authorization
/// URL (or types the device's user code) and approves.
@Suite("OAuth2 sign-in flows against django-oauth-toolkit", .liveServers)
struct OAuth2SignInLiveTests {
    @Test("authorization code with PKCE: the browser's redirect reaches the loopback listener, the code becomes a login that works")
    func authorizationCode() async throws {
        let live = try OAuthLive()
        let client = OAuth2Client(
            authorizeURL: URL(string: live.base.absoluteString + "o/authorize/"), tokenURL: live.tokenURL, clientID: "strata-cli",
            scope: "read write")
        let (urls, shown) = AsyncStream.makeStream(of: URL.self)
        let browser = Task {
            for await url in urls { return try await Browser(live: live).approveAuthorization(url) }
            return 0
        }
        let login = try await OAuth2SignIn.authorizationCode(client, transport: AsyncHTTPClientTransport.shared) { message, url in
            #expect(message.contains("browser"))
            if let url { shown.yield(url) }
        }
        shown.finish()
        #expect(try await browser.value == 200)
        #expect(login.kind == .oauth2 && login.clientID == "strata-cli" && login.refreshToken != nil)
        #expect((login.expiresAt ?? .distantPast) > Date())
        // The login is good at the resource server.
        let cloud = try await live.startCloud()
        defer { Task { await cloud.stop() } }
        let provider = try await live.provider(cloud, credentials: login, wire: TokenWire(), saved: SavedLogins())
        _ = try await provider.list(.root, page: PageRequest())
    }

    @Test("the device flow: the user code is approved, polling brings the tokens")
    func deviceFlow() async throws {
        let live = try OAuthLive()
        let login = try await deviceSignIn(live, approve: true)
        #expect(login.kind == .oauth2 && login.clientID == "strata-device" && login.refreshToken != nil)
    }

    @Test("the device flow: a refused user code is unauthorized, access_denied")
    func deviceFlowDenied() async throws {
        let live = try OAuthLive()
        let error = await #expect(throws: ProviderError.self) { try await deviceSignIn(live, approve: false) }
        #expect(error?.code == .unauthorized)
        #expect(error?.message?.contains("access_denied") == true)
    }

    private func deviceSignIn(_ live: OAuthLive, approve: Bool) async throws -> Credentials {
        let client = OAuth2Client(
            authorizeURL: nil, tokenURL: live.tokenURL, deviceURL: URL(string: live.base.absoluteString + "o/device-authorization/"),
            clientID: "strata-device")
        let (codes, shown) = AsyncStream.makeStream(of: String.self)
        let user = Task {
            for await code in codes { return try await Browser(live: live).approveDevice(code: code, accept: approve) }
            return 0
        }
        defer { user.cancel() }
        let login = try await OAuth2SignIn.device(client, transport: AsyncHTTPClientTransport.shared) { message, _ in
            if let range = message.range(of: "enter the code ") {
                shown.yield(String(message[range.upperBound...].prefix { !$0.isWhitespace }))
            }
        }
        shown.finish()
        return login
    }
}

/// The test user's browser: a session cookie, and requests whose redirects it looks at itself.
private struct Browser {
    let live: OAuthLive
    let transport = AsyncHTTPClientTransport.shared

    /// Signs in to Django; the session cookie.
    func signIn() async throws -> String {
        let response = try await post(URL(string: live.base.absoluteString + "login/")!, ["username": live.user, "password": live.password], cookie: nil)
        let cookie = response.headers["set-cookie"].compactMap { $0.split(separator: ";").first.map(String.init) }
            .first { $0.hasPrefix("sessionid=") }
        return try #require(cookie)
    }

    /// Opens the authorization URL signed in and follows its redirect to the loopback listener;
    /// the listener's status.
    func approveAuthorization(_ url: URL) async throws -> Int {
        let cookie = try await signIn()
        let answer = try await transport.send(TransportRequest(method: .GET, url: url, headers: ["Cookie": cookie]))
        await answer.body.discard()
        #expect(answer.status == 302)
        let location = try #require(answer.headers.first(name: "location").flatMap(URL.init(string:)))
        #expect(location.host == "127.0.0.1")
        let landing = try await transport.send(TransportRequest(method: .GET, url: location))
        let page = String(buffer: try await landing.body.collect(upTo: 1 << 16))
        #expect(page.contains("Signed in"))
        return landing.status
    }

    /// Types the user code and accepts (or denies) the device.
    func approveDevice(code: String, accept: Bool) async throws -> Int {
        let cookie = try await signIn()
        let entered = try await post(URL(string: live.base.absoluteString + "o/device/")!, ["user_code": code], cookie: cookie)
        let confirm = try #require(entered.headers.first(name: "location"))
        let decided = try await post(
            URL(string: live.base.absoluteString.trimmingSuffix("/") + confirm)!, ["action": accept ? "accept" : "deny"], cookie: cookie)
        return decided.status
    }

    private func post(_ url: URL, _ form: [String: String], cookie: String?) async throws -> TransportResponse {
        var headers: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        if let cookie { headers.add(name: "Cookie", value: cookie) }
        let response = try await transport.send(TransportRequest(
            method: .POST, url: url, headers: headers, body: .bytes(ByteBuffer(string: OAuth2Form.encode(form)))))
        await response.body.discard()
        return response
    }
}

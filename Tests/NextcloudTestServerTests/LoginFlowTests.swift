import Foundation
import Testing
@testable import NextcloudTestServer

/// Login Flow v2 and app password revocation, as Nextcloud's `ClientFlowLoginV2Controller` and
/// `AppPasswordController` answer them.
@Suite("Login Flow v2")
struct LoginFlowTests {
    struct Started {
        var pollToken: String
        var endpoint: String
        var login: String
    }

    static func start(_ client: DAVClient, agent: String = "strata-test (host)") async throws -> Started {
        let answer = try await client.with(authorization: nil).send("POST", "/index.php/login/v2", headers: [("User-Agent", agent)])
        #expect(answer.status == 200)
        let value = try #require(OCSValue.parse(json: answer.body))
        return Started(
            pollToken: try #require(value["poll"]?["token"]?.text), endpoint: try #require(value["poll"]?["endpoint"]?.text),
            login: try #require(value["login"]?.text))
    }

    static func poll(_ client: DAVClient, _ flow: Started) async throws -> TestResponse {
        try await client.with(authorization: nil).send(
            "POST", flow.endpoint, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            text: "token=" + DAVClient.formEncode(flow.pollToken))
    }

    /// Opens the login page and posts its form, as the user's browser does.
    static func grant(_ client: DAVClient, _ flow: Started, user: String = "alice", password: String = "secret") async throws -> TestResponse {
        let browser = client.with(authorization: nil)
        let page = try await browser.send("GET", flow.login)
        #expect(page.status == 200)
        let marker = "name=\"stateToken\" value=\""
        let start = try #require(page.text.range(of: marker))
        let state = String(page.text[start.upperBound...].prefix { $0 != "\"" })
        let form = [("stateToken", state), ("user", user), ("password", password)]
            .map { "\($0.0)=\(DAVClient.formEncode($0.1))" }.joined(separator: "&")
        return try await browser.send("POST", flow.login, headers: [("Content-Type", "application/x-www-form-urlencoded")], text: form)
    }

    @Test("start: poll and login URLs on the server root; poll is 404 until granted, then 200 once, then 404")
    func grantedOnce() async throws {
        try await withServer { server, client async throws in
            let flow = try await Self.start(client, agent: "strata/0.1.0 (laptop)")
            let root = server.baseURL.absoluteString
            #expect(flow.endpoint == root + "/index.php/login/v2/poll")
            #expect(flow.login.hasPrefix(root + "/index.php/login/v2/flow/"))
            #expect(flow.pollToken.count == 128)
            #expect(try await Self.poll(client, flow).status == 404)
            #expect(try await Self.grant(client, flow).status == 200)
            let granted = try await Self.poll(client, flow)
            #expect(granted.status == 200)
            let value = try #require(OCSValue.parse(json: granted.body))
            #expect(value["server"]?.text == root)
            #expect(value["loginName"]?.text == "alice")
            let appPassword = try #require(value["appPassword"]?.text)
            #expect(appPassword.count == 72)
            #expect(try await Self.poll(client, flow).status == 404, "the credentials are handed out once")
            #expect(server.appPasswordNames(user: "alice") == ["strata/0.1.0 (laptop)"])
            // The app password signs in to WebDAV and OCS, the password of the flow's page is not needed.
            let app = client.with(authorization: DAVClient.basic("alice", appPassword))
            #expect(try await app.send("PROPFIND", "/remote.php/dav/files/alice/", headers: [("Depth", "0")]).status == 207)
            #expect(try await app.ocs("GET", "/ocs/v2.php/cloud/user?format=json").status == 200)
            #expect(try await client.with(authorization: DAVClient.basic("bob", appPassword)).send("PROPFIND", "/remote.php/dav/files/alice/").status == 401)
        }
    }

    @Test("a wrong password or state token on the page grants nothing; the flow stays open")
    func wrongPassword() async throws {
        try await withServer { _, client async throws in
            let flow = try await Self.start(client)
            #expect(try await Self.grant(client, flow, password: "wrong").status == 403)
            #expect(try await Self.poll(client, flow).status == 404)
            let forged = try await client.with(authorization: nil).send(
                "POST", flow.login, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                text: "stateToken=forged&user=alice&password=secret")
            #expect(forged.status == 403)
            #expect(try await Self.poll(client, flow).status == 404)
            #expect(try await Self.grant(client, flow).status == 200)
            #expect(try await Self.poll(client, flow).status == 200)
        }
    }

    @Test("an expired flow: the page is 403, granting fails, the poll stays 404")
    func expiry() async throws {
        try await withServer { server, client async throws in
            let flow = try await Self.start(client)
            #expect(server.loginFlowsInProgress() == 1)
            server.expireLoginFlows()
            #expect(server.loginFlowsInProgress() == 0)
            let page = try await client.with(authorization: nil).send("GET", flow.login)
            #expect(page.status == 403)
            #expect(page.text.contains("Your login token is invalid or has expired"))
            #expect(try await Self.poll(client, flow).status == 404)
            #expect(server.appPasswordNames(user: "alice").isEmpty)
        }
    }

    @Test("expiry after granting: the credentials are not handed out any more")
    func expiryAfterGrant() async throws {
        try await withServer { server, client async throws in
            let flow = try await Self.start(client)
            #expect(try await Self.grant(client, flow).status == 200)
            server.expireLoginFlows()
            #expect(try await Self.poll(client, flow).status == 404)
        }
    }

    @Test("DELETE ocs/v2.php/core/apppassword revokes the app password it signs in with; the password cannot be revoked")
    func revocation() async throws {
        try await withServer { server, client async throws in
            let flow = try await Self.start(client)
            #expect(try await Self.grant(client, flow).status == 200)
            let value = try #require(OCSValue.parse(json: try await Self.poll(client, flow).body))
            let appPassword = try #require(value["appPassword"]?.text)
            let app = client.with(authorization: DAVClient.basic("alice", appPassword))
            // Without OCS-APIRequest it is refused, as every OCS call.
            #expect(try await app.send("DELETE", "/ocs/v2.php/core/apppassword").status == 401)
            #expect(try await client.ocs("DELETE", "/ocs/v2.php/core/apppassword?format=json").status == 403)
            let revoked = try await app.ocs("DELETE", "/ocs/v2.php/core/apppassword?format=json")
            #expect(revoked.status == 200)
            #expect(try await app.send("PROPFIND", "/remote.php/dav/files/alice/", headers: [("Depth", "0")]).status == 401)
            #expect(try await app.ocs("DELETE", "/ocs/v2.php/core/apppassword?format=json").status == 401)
            #expect(server.appPasswordNames(user: "alice").isEmpty)
            // The user's own password still works.
            #expect(try await client.send("PROPFIND", "/remote.php/dav/files/alice/", headers: [("Depth", "0")]).status == 207)
        }
    }

    @Test("a configured app password is revoked the same way")
    func configuredRevocation() async throws {
        let configuration = NextcloudTestServer.Configuration(appPasswords: ["app-1": "alice"])
        try await withServer(configuration) { _, client async throws in
            let app = client.with(authorization: DAVClient.basic("alice", "app-1"))
            #expect(try await app.send("PROPFIND", "/remote.php/dav/files/alice/", headers: [("Depth", "0")]).status == 207)
            #expect(try await app.ocs("DELETE", "/ocs/v2.php/core/apppassword").status == 200)
            #expect(try await app.send("PROPFIND", "/remote.php/dav/files/alice/", headers: [("Depth", "0")]).status == 401)
        }
    }

    @Test("LoginFlowBrowser grants through the page as a user does")
    func browserHelper() async throws {
        try await withServer { _, client async throws in
            let flow = try await Self.start(client)
            let login = try #require(URL(string: flow.login))
            #expect(try await LoginFlowBrowser.grant(login, user: "alice", password: "nope") == 403)
            #expect(try await LoginFlowBrowser.grant(login, user: "alice", password: "secret") == 200)
            #expect(try await Self.poll(client, flow).status == 200)
            #expect(try await LoginFlowBrowser.grant(login, user: "alice", password: "secret") == 403)
        }
    }
}

import Foundation
import Testing
@testable import NuxeoTestServer

@Suite("Authentication")
struct AuthTests {
    static let tokenQuery = "/authentication/token?applicationName=Strata&deviceId=dev-1&deviceDescription=Test%20box&permission=ReadWrite"

    @Test("401 is an HTML page, with WWW-Authenticate unless X-No-Basic-Header is set")
    func unauthorized() async throws {
        try await withServer { _, client in
            let plain = try await client.send("GET", "/api/v1/me", auth: .none)
            #expect(plain.status == 401)
            #expect(plain.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(plain.text.contains("<html"))
            #expect(plain.header("WWW-Authenticate") == "Basic realm=\"Nuxeo Automation\"")
            let quiet = try await client.send("GET", "/api/v1/me", headers: [("X-No-Basic-Header", "true")], auth: .none)
            #expect(quiet.status == 401)
            #expect(quiet.header("WWW-Authenticate") == nil)
            let blank = try await client.send("GET", "/api/v1/me", headers: [("X-No-Basic-Header", " ")], auth: .none)
            #expect(blank.header("WWW-Authenticate") != nil)
            let wrong = try await client.send("GET", "/api/v1/me", auth: .basic("Administrator", "nope"))
            #expect(wrong.status == 401)
            let cookie = try await client.send("GET", "/api/v1/me", headers: [("Cookie", "JSESSIONID=abc")], auth: .none)
            #expect(cookie.status == 401, "cookies never authenticate")
        }
    }

    @Test("token acquire (201 text, stable per device), use, revoke; servlet errors")
    func tokens() async throws {
        try await withServer { _, client in
            let first = try await client.send("GET", Self.tokenQuery)
            #expect(first.status == 201)
            #expect(first.header("Content-Type") == "text/plain; charset=UTF-8")
            let token = first.text
            #expect(UUID(uuidString: token) != nil)
            #expect(try await client.send("GET", Self.tokenQuery).text == token)
            let me = try await client.send("GET", "/api/v1/me", auth: .token(token))
            #expect(me.status == 200)
            #expect(try me.json()["id"] == .string("Administrator"))
            #expect(try await client.send("GET", "/api/v1/me", auth: .bearer(token)).status == 200)
            #expect(try await client.send("GET", "/api/v1/me", auth: .token("not-a-token")).status == 401)
            let missing = try await client.send("GET", "/authentication/token?applicationName=Strata&deviceId=d")
            #expect(missing.status == 400 && missing.body.isEmpty)
            #expect(try await client.send("POST", Self.tokenQuery).status == 405)
            let revoke = try await client.send("GET", "/authentication/token?applicationName=Strata&deviceId=dev-1&revoke=true")
            #expect(revoke.status == 202)
            #expect(revoke.text.hasPrefix("Token revoked for userName Administrator"))
            #expect(try await client.send("GET", "/api/v1/me", auth: .token(token)).status == 401)
            let again = try await client.send("GET", "/authentication/token?applicationName=Strata&deviceId=dev-1&revoke=true")
            #expect(again.status == 400)
            #expect(again.text.hasPrefix("No token found"))
        }
    }

    @Test("faults.revokeAllTokens invalidates every token; new acquisitions work")
    func revokeAll() async throws {
        try await withServer { server, client in
            let token = try await client.send("GET", Self.tokenQuery).text
            #expect(try await client.send("GET", "/api/v1/me", auth: .token(token)).status == 200)
            server.faults.revokeAllTokens()
            let after = try await client.send("GET", "/api/v1/me", headers: [("X-No-Basic-Header", "true")], auth: .token(token))
            #expect(after.status == 401)
            #expect(after.header("Content-Type")?.hasPrefix("text/html") == true)
            let fresh = try await client.send("GET", Self.tokenQuery).text
            #expect(fresh != token)
            #expect(try await client.send("GET", "/api/v1/me", auth: .token(fresh)).status == 200)
        }
    }

    @Test("configured users and request recording")
    func usersAndRecording() async throws {
        try await withServer({ $0.users = ["alice": "secret"] }) { server, client in
            #expect(try await client.send("GET", "/api/v1/me", auth: .basic("Administrator", "Administrator")).status == 401)
            let me = try await client.send("GET", "/api/v1/me", auth: .basic("alice", "secret")).json()
            #expect(me["isAdministrator"] == .bool(false))
            server.resetRequests()
            _ = try await client.send("GET", "/api/v1/path/default-domain/workspaces/a%20b?x=1", auth: .basic("alice", "secret"))
            let recorded = server.requests()
            #expect(recorded.count == 1)
            #expect(recorded.first?.method == "GET")
            #expect(recorded.first?.path == "/nuxeo/api/v1/path/default-domain/workspaces/a%20b")
            #expect(recorded.first?.query == "x=1")
            #expect(recorded.first?.header("authorization")?.hasPrefix("Basic ") == true)
        }
    }
}

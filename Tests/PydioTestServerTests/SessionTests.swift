import Foundation
import Testing
@testable import PydioTestServer

@Suite("Sessions and secure tokens")
struct SessionTests {
    @Test("every token of a session stays valid; a wrong or missing one is refused")
    func tokens() async throws {
        try await withServer { _, client in
            try await client.login()
            let first = client.token
            let second = try await client.get([("get_action", "get_secure_token")]).text
            #expect(second.count == 32 && second != first)
            for token in [first, second] {
                client.token = token
                #expect(try await client.action("ls", [("dir", "/")]).text.contains("repo_has_recycle"))
            }
            client.token = "x"
            #expect(try await client.action("ls", [("dir", "/")]).text.contains("You are not allowed to access this resource."))
            #expect(try await client.get([("get_action", "ls"), ("tmp_repository_id", "1")]).text.contains("not allowed"))
        }
    }

    @Test("ajxp_sessid stands for the cookie")
    func sessionParameter() async throws {
        try await withServer { _, client in
            try await client.login()
            let id = try #require(client.cookies["AjaXplorer"])
            client.setCookie("AjaXplorer", nil)
            let answer = try await client.get([
                ("get_action", "ls"), ("tmp_repository_id", "1"), ("dir", "/"), ("ajxp_sessid", id), ("secure_token", client.token),
            ])
            #expect(answer.text.contains("repo_has_recycle"))
        }
    }

    @Test("expireSessions: require_auth and a new cookie; login works again")
    func expiry() async throws {
        try await withServer { server, client in
            try await client.login()
            let old = client.cookies["AjaXplorer"]
            server.faults.expireSessions()
            let answer = try await client.action("ls", [("dir", "/")])
            #expect(answer.text == "<?xml version=\"1.0\" encoding=\"UTF-8\"?><tree ><require_auth/></tree>")
            #expect(client.cookies["AjaXplorer"] != old)
            try await client.login()
            #expect(try await client.action("ls", [("dir", "/")]).text.contains("repo_has_recycle"))
        }
    }

    @Test("remember-me: after expiry the cookie logs in again, the session wants get_secure_token")
    func rememberMe() async throws {
        try await withServer { server, client in
            let login = try await client.login(extra: [("remember_me", "true")])
            #expect(login.text.contains("remember_login=\"notify\" remember_pass=\"notify\""))
            let remembered = try #require(client.cookies["AjaXplorer-remember"])
            #expect(remembered.hasPrefix("admin%3A"))
            server.faults.expireSessions()
            #expect(try await client.action("ls", [("dir", "/")]).text.contains("not allowed"))
            #expect(client.cookies["AjaXplorer-remember"] != remembered, "rotated on use")
            client.token = try await client.get([("get_action", "get_secure_token")]).text
            #expect(try await client.action("ls", [("dir", "/")]).text.contains("repo_has_recycle"))
            let logout = try await client.post([("get_action", "logout"), ("secure_token", client.token)])
            #expect(logout.text.contains("<logging_result value=\"2\"/>"))
            #expect(client.cookies["AjaXplorer-remember"] == nil)
        }
    }

    @Test("workspaces by id or slug; unknown → error; read-only ones answer empty")
    func workspaces() async throws {
        try await withServer { _, client in
            try await client.login()
            #expect(try await client.action("ls", [("dir", "/")], workspace: "my-files").text.contains("repo_has_recycle"))
            #expect(try await client.action("ls", [("dir", "/")], workspace: "default").text.contains("repo_has_recycle"))
            #expect(try await client.action("ls", [("dir", "/")], workspace: "doesnotexist").text
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?><tree ><message type=\"ERROR\">Could not find workspace with id/alias doesnotexist</message></tree>")
            let inbox = try await client.postAction("mkdir", [("dir", "/"), ("dirname", "x")], workspace: "inbox")
            #expect(inbox.body.isEmpty && inbox.status == 200)
            _ = try await client.post([("get_action", "switch_repository"), ("repository_id", "my-files"), ("secure_token", client.token)])
            #expect(try await client.get([("get_action", "ls"), ("dir", "/"), ("secure_token", client.token)]).text.contains("repo_has_recycle"))
        }
    }

    @Test("Pydio 5/6 seed: the password is md5(md5(password) + seed)")
    func hashedSeed() async throws {
        try await withServer({ $0.seed = "4f1b2c" }) { _, client in
            let seed = try await client.get([("get_action", "get_seed")]).text
            #expect(seed == "4f1b2c")
            let clear = try await client.login("admin", "admin").text
            #expect(clear.contains("value=\"-1\""))
            let hashed = MD5.hex(MD5.hex("admin") + "4f1b2c")
            #expect(try await client.login("admin", hashed).text.contains("value=\"1\""))
        }
    }

    @Test("requests() records method, path, query, decoded form fields and headers")
    func recordedRequests() async throws {
        try await withServer { server, client in
            server.resetRequests()
            _ = try await client.post([("get_action", "login"), ("userid", "admin"), ("password", "a b&c"), ("login_seed", "-1")])
            let recorded = try #require(server.requests().last)
            #expect(recorded.method == "POST" && recorded.path == "/pydio/index.php" && recorded.query == nil)
            #expect(recorded.action == "login")
            #expect(recorded.parameter("password") == "a b&c")
            #expect(recorded.header("Ajxp-Force-Login") == "true")
            server.resetRequests()
            #expect(server.requests().isEmpty)
        }
    }
}

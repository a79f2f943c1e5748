import Foundation
import Testing
@testable import NuxeoTestServer

@Suite("Automation")
struct AutomationTests {
    func op(_ client: TestClient, _ name: String, _ body: String, headers: [(String, String)] = []) async throws -> TestResponse {
        try await client.sendJSON("POST", "/api/v1/automation/\(name)", body, headers: headers)
    }

    func acls(_ client: TestClient, _ uid: String) async throws -> [NXJSON] {
        try await client.send("GET", "/api/v1/id/\(uid)", headers: [("enrichers-document", "acls")])
            .json()["contextParameters"]?["acls"]?.arrayValue ?? []
    }

    @Test("AddPermission / RemovePermission round trip through the acls enricher")
    func permissions() async throws {
        try await withServer { _, client in
            let uid = try await client.create("File", name: "s")["uid"]?.stringValue ?? ""
            let add = try await op(client, "Document.AddPermission", """
                {"input":"doc:\(uid)","params":{"users":["Administrator"],"permission":"ReadWrite",\
                "begin":"2020-01-01T00:00:00.000Z","end":"2999-02-01T00:00:00.000Z","notify":true,"comment":"FYI"}}
                """)
            #expect(add.status == 200)
            #expect(try add.json()["uid"] == .string(uid))
            var local = try await acls(client, uid).first { $0["name"] == .string("local") }
            let ace = try #require(local?["aces"]?[0])
            let begin = try #require(DateCodec.parse("2020-01-01T00:00:00.000Z"))
            let end = try #require(DateCodec.parse("2999-02-01T00:00:00.000Z"))
            #expect(ace["id"] == .string("Administrator:ReadWrite:true:Administrator:\(begin):\(end)"))
            #expect(ace["status"] == .string("effective"))
            #expect(ace["begin"] == .string("2020-01-01T00:00:00.000Z"))
            let email = try await op(client, "Document.AddACL", "{\"input\":\"\(uid)\",\"params\":{\"email\":\"x@y.z\",\"permission\":\"Read\",\"end\":\"2999-01-01\",\"begin\":\"2998-01-01\"}}")
            #expect(email.status == 200)
            local = try await acls(client, uid).first { $0["name"] == .string("local") }
            let external = try #require(local?["aces"]?[1])
            #expect(external["username"] == .string("transient/x@y.z"))
            #expect(external["externalUser"] == .bool(true))
            #expect(external["status"] == .string("pending"))
            let noEnd = try await op(client, "Document.AddPermission", "{\"input\":\"\(uid)\",\"params\":{\"email\":\"x@y.z\",\"permission\":\"Read\"}}")
            #expect(noEnd.status == 400)
            let unknown = try await op(client, "Document.AddPermission", "{\"input\":\"\(uid)\",\"params\":{\"users\":[\"ghost\"],\"permission\":\"Read\"}}")
            #expect(unknown.status == 400)
            let badPermission = try await op(client, "Document.AddPermission", "{\"input\":\"\(uid)\",\"params\":{\"username\":\"members\",\"permission\":\"Fly\"}}")
            #expect(badPermission.status == 400)
            let remove = try await op(client, "Document.RemovePermission", "{\"input\":\"\(uid)\",\"params\":{\"id\":\(NXJSON.string(ace["id"]?.stringValue ?? "").serialized)}}")
            #expect(remove.status == 200)
            local = try await acls(client, uid).first { $0["name"] == .string("local") }
            #expect(local?["aces"]?.arrayValue?.count == 1)
            let byUser = try await op(client, "Document.RemovePermission", "{\"input\":\"\(uid)\",\"params\":{\"user\":\"transient/x@y.z\"}}")
            #expect(byUser.status == 200)
            #expect(try await acls(client, uid).allSatisfy { $0["name"] != .string("local") })
            let gone = try await op(client, "Document.RemovePermission", "{\"input\":\"\(uid)\",\"params\":{\"id\":\"nobody:Read:true:::\"}}")
            #expect(gone.status == 400)
        }
    }

    @Test("Move, Copy, Trash, Untrash, Delete, Fetch; unknown op 404; X-NXVoidOperation")
    func documentOps() async throws {
        try await withServer { server, client in
            let folder = try await client.create("Folder", name: "dest", title: "dest")
            let tree = try await client.create("Folder", name: "tree", title: "tree")
            try await client.create("File", name: "leaf", under: "/api/v1/id/\(tree["uid"]?.stringValue ?? "")")
            let treeUID = tree["uid"]?.stringValue ?? ""
            let moved = try await op(client, "Document.Move", "{\"input\":\"doc:\(treeUID)\",\"params\":{\"target\":\"/default-domain/workspaces/strata/dest\",\"name\":\"renamed\"}}").json()
            #expect(moved["path"] == .string("/default-domain/workspaces/strata/dest/renamed"))
            #expect(moved["changeToken"] == .string("2-1"))
            let before = server.documentCount()
            let copy = try await op(client, "Document.Copy", "{\"input\":\"\(treeUID)\",\"params\":{\"target\":\"\(folder["uid"]?.stringValue ?? "")\",\"name\":\"copy\"}}").json()
            #expect(copy["uid"] != moved["uid"])
            #expect(copy["path"] == .string("/default-domain/workspaces/strata/dest/copy"))
            #expect(server.documentCount() == before + 2)
            let trashed = try await op(client, "Document.Trash", "{\"input\":\"\(treeUID)\"}").json()
            #expect(trashed["isTrashed"] == .bool(true))
            let trashedName = trashed["path"]?.stringValue?.split(separator: "/").last.map(String.init) ?? ""
            #expect(trashedName.hasPrefix("renamed._") && trashedName.hasSuffix("_.trashed"))
            let children = try await client.send("GET", "/api/v1/id/\(folder["uid"]?.stringValue ?? "")/@children").json()
            #expect(children["entries"]?.arrayValue?.count == 1, "trashed children are hidden")
            let untrashed = try await op(client, "Document.Untrash", "{\"input\":\"\(treeUID)\"}").json()
            #expect(untrashed["isTrashed"] == .bool(false))
            #expect(untrashed["path"] == .string("/default-domain/workspaces/strata/dest/renamed"))
            let fetched = try await op(client, "Document.Fetch", "{\"params\":{\"value\":\"/default-domain/workspaces/strata/dest/copy\"}}").json()
            #expect(fetched["uid"] == copy["uid"])
            let void = try await op(client, "Document.Fetch", "{\"params\":{\"value\":\"\(treeUID)\"}}", headers: [("X-NXVoidOperation", "true")])
            #expect(void.status == 204)
            let deleted = try await op(client, "Document.Delete", "{\"input\":\"\(copy["uid"]?.stringValue ?? "")\"}")
            #expect(deleted.status == 204)
            #expect(server.documentCount() == before)
            let unknown = try await op(client, "No.Such.Op", "{}")
            #expect(unknown.status == 404)
            #expect(try unknown.json()["entity-type"] == .string("exception"))
            let site = try await client.sendJSON("POST", "/site/automation/Document.Fetch", "{\"params\":{\"value\":\"\(treeUID)\"}}")
            #expect(site.status == 200)
        }
    }
}

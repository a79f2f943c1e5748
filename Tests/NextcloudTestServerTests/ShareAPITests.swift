import Foundation
import Testing
@testable import NextcloudTestServer

@Suite("OCS share API")
struct ShareAPITests {
    let v2 = "/ocs/v2.php/apps/files_sharing/api/v1/shares"
    let v1 = "/ocs/v1.php/apps/files_sharing/api/v1/shares"

    static func json(_ response: TestResponse) throws -> OCSValue {
        try #require(OCSValue.parse(json: response.body))
    }

    @Test("create a link with password and expiry, update, list by path, delete; share-types follow")
    func lifecycle() async throws {
        try await withServer { server, client in
            server.seedFile(user: "alice", path: "docs/a.txt", contents: Data("a".utf8))
            let created = try await client.ocs("POST", v2 + "?format=json", form: [
                ("path", "/docs/a.txt"), ("shareType", "3"), ("password", "pw"), ("expireDate", "2031-05-06"),
            ])
            #expect(created.status == 200)
            let data = try #require(try Self.json(created)["ocs"]?["data"])
            let id = try #require(data["id"]?.text)
            #expect(data["expiration"] == .string("2031-05-06 00:00:00"))
            #expect(data["password"]?.text?.hasPrefix("2|$argon2i$") == true)
            let token = try #require(data["token"]?.text)
            #expect(data["url"] == .string(server.baseURL.absoluteString + "/s/" + token))
            let props = try await client.send("PROPFIND", "/remote.php/dav/files/alice/docs/a.txt", headers: [("Depth", "0")], text: RequestBodies.propfind(["oc:share-types"]))
            #expect(props.text.contains("<oc:share-types><oc:share-type>3</oc:share-type></oc:share-types>"))
            let updated = try await client.ocs("PUT", v2 + "/\(id)?format=json", form: [("note", "hello")])
            #expect(try Self.json(updated)["ocs"]?["data"]?["note"] == .string("hello"))
            let nothing = try await client.ocs("PUT", v2 + "/\(id)?format=json", form: [])
            #expect(nothing.status == 400)
            let filePermissions = try await client.ocs("PUT", v2 + "/\(id)?format=json", form: [("permissions", "15")])
            #expect(filePermissions.status == 400)
            let listed = try await client.ocs("GET", v2 + "?format=json&path=/docs/a.txt")
            guard case .array(let items)? = try Self.json(listed)["ocs"]?["data"] else { Issue.record("no list"); return }
            #expect(items.count == 1)
            let subfiles = try await client.ocs("GET", v2 + "?format=json&path=/docs&subfiles=true")
            guard case .array(let inside)? = try Self.json(subfiles)["ocs"]?["data"] else { Issue.record("no list"); return }
            #expect(inside.count == 1)
            #expect(try await client.ocs("DELETE", v2 + "/\(id)?format=json").status == 200)
            let gone = try await client.ocs("GET", v2 + "/\(id)?format=json")
            #expect(gone.status == 404)
            #expect(try Self.json(gone)["ocs"]?["meta"]?["statuscode"] == .int(404))
            let v1gone = try await client.ocs("GET", v1 + "/\(id)?format=json")
            #expect(v1gone.status == 200, "v1 answers HTTP 200 with the error in meta")
            #expect(try Self.json(v1gone)["ocs"]?["meta"]?["statuscode"] == .int(404))
        }
    }

    @Test("user and group shares; the recipient sees them with shared_with_me")
    func userShares() async throws {
        let configuration = NextcloudTestServer.Configuration(users: ["alice": "secret", "bob": "b"], groups: ["team": ["bob"]])
        try await withServer(configuration) { server, client in
            server.seedFolder(user: "alice", path: "Project")
            let user = try await client.ocs("POST", v2 + "?format=json", form: [("path", "/Project"), ("shareType", "0"), ("shareWith", "bob")])
            #expect(try Self.json(user)["ocs"]?["data"]?["permissions"] == .int(31))
            let group = try await client.ocs("POST", v2 + "?format=json", form: [("path", "/Project"), ("shareType", "1"), ("shareWith", "team"), ("permissions", "1")])
            #expect(group.status == 200)
            let nobody = try await client.ocs("POST", v2 + "?format=json", form: [("path", "/Project"), ("shareType", "0"), ("shareWith", "carol")])
            #expect(nobody.status == 404)
            let bob = client.with(authorization: DAVClient.basic("bob", "b"))
            let received = try await bob.ocs("GET", v2 + "?format=json&shared_with_me=true")
            guard case .array(let items)? = try Self.json(received)["ocs"]?["data"] else { Issue.record("no list"); return }
            #expect(items.count == 2)
            let unknownType = try await client.ocs("POST", v2 + "?format=json", form: [("path", "/Project"), ("shareType", "7")])
            #expect(unknownType.status == 400)
            let missingPath = try await client.ocs("POST", v2 + "?format=json", form: [("path", "/nope"), ("shareType", "3")])
            #expect(missingPath.status == 404)
        }
    }

    @Test("OCS-APIRequest is required and bad credentials are 997 with HTTP 401; capabilities follow the configuration")
    func authAndCapabilities() async throws {
        try await withServer(.init(chunking: false)) { _, client in
            let noHeader = try await client.send("GET", v2 + "?format=json")
            #expect(noHeader.status == 401)
            #expect(try Self.json(noHeader)["ocs"]?["meta"]?["statuscode"] == .int(997))
            let capabilities = try await client.ocs("GET", "/ocs/v2.php/cloud/capabilities?format=json")
            let dav = try Self.json(capabilities)["ocs"]?["data"]?["capabilities"]?["dav"]
            #expect(dav?["chunking"] == nil)
            let xml = try await client.ocs("GET", "/ocs/v1.php/cloud/user")
            #expect(xml.header("Content-Type")?.hasPrefix("text/xml") == true)
            #expect(xml.text.contains("<id>alice</id>"))
        }
    }
}

import Foundation
import Testing
@testable import NuxeoTestServer

/// Compares the server's JSON key by key with recorded real-server answers.
@Suite("Shapes against the recordings")
struct ShapeTests {
    /// Keys the 10.10 writer adds that the ~9.x php-client recordings predate.
    static let since1010: Set<String> = ["isRecord", "retainUntil", "hasLegalHold", "isUnderRetentionOrLegalHold", "schemas"]

    @Test("document (File and Folder) vs php-client/document.json and nuxeo-server/test-expected-document1.json")
    func document() async throws {
        let php = try Fixtures.load("php-client/document.json")
        let golden = try Fixtures.load("nuxeo-server/test-expected-document1.json")
        try await withServer { _, client in
            let file = try await client.createFile(name: "a.txt", content: Data("abc".utf8))
            let folder = try await client.create("Folder", name: "folder", title: "Folder")
            for (label, created) in [("File", file), ("Folder", folder)] {
                let uid = created["uid"]?.stringValue ?? ""
                let doc = try await client.send("GET", "/api/v1/id/\(uid)", headers: [
                    ("properties", "*"), ("enrichers-document", "acls,permissions"),
                ]).json()
                // php-client (~9.x): no isRecord/retention/legal-hold keys and no schemas yet.
                Shape.compare(doc, php, versionExtras: Self.since1010, nullable: ["lastModified"], context: "\(label) vs document.json")
                // 10.10 golden: versionLabel is only written with fetch.document=versionLabel;
                // lastModified is absent there because its dc:modified is null.
                Shape.compare(doc, golden, versionExtras: ["lastModified"], notWritten: ["versionLabel"],
                              nullable: ["retainUntil"], context: "\(label) vs test-expected-document1.json")
                #expect(doc["changeToken"]?.stringValue?.contains("-") == true)
                #expect(doc["schemas"]?[0]?.keys == ["name", "prefix"])
                // dublincore / common key sets equal the 10.10 golden's.
                let ourProps = Set(doc["properties"]?.keys ?? [])
                let goldenProps = Set(golden["properties"]?.keys ?? []).filter { $0.hasPrefix("dc:") || $0.hasPrefix("common:") }
                #expect(goldenProps.isSubset(of: ourProps))
            }
            let without = try await client.send("GET", "/api/v1/id/\(file["uid"]?.stringValue ?? "")").json()
            #expect(without["properties"] == nil, "no properties header → properties omitted (10.10)")
            #expect(without["contextParameters"] == nil, "no enricher → no contextParameters")
        }
    }

    @Test("root vs php-client/documentRoot.json")
    func root() async throws {
        let fixture = try Fixtures.load("php-client/documentRoot.json")
        try await withServer { _, client in
            let root = try await client.send("GET", "/api/v1/path/", headers: [("properties", "*")]).json()
            Shape.compare(root, fixture, versionExtras: Self.since1010.union(["isTrashed", "facets"]), context: "root")
            #expect(root["state"] == .null)
            #expect(root["changeToken"] == .null)
            #expect(root["parentRef"] == .string("/"))
            #expect(root["path"] == .string("/"))
            #expect(root["type"] == .string("Root"))
            #expect(root["title"] == root["uid"], "the recording's root title is its uid")
            let dc = Set(fixture["properties"]?.keys.filter { $0.hasPrefix("dc:") } ?? [])
            #expect(Set(root["properties"]?.keys.filter { $0.hasPrefix("dc:") } ?? []) == dc)
        }
    }

    @Test("documents vs php-client/document-list.json")
    func documents() async throws {
        let fixture = try Fixtures.load("php-client/document-list.json")
        try await withServer { _, client in
            try await client.create("Folder", name: "x", title: "x")
            let list = try await client.send("GET", workspace + "/@children?pageSize=5").json()
            // 10.10 adds resultsCountLimit and currentPageOffset.
            Shape.compare(list, fixture, versionExtras: ["resultsCountLimit", "currentPageOffset"], context: "documents")
        }
    }

    @Test("exception vs php-client/exception.json (status, message, entity-type)")
    func exception() async throws {
        let fixture = try Fixtures.load("php-client/exception.json")
        try await withServer { _, client in
            let response = try await client.send("GET", "/api/v1/path/nowhere")
            #expect(response.status == 404)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            let json = try response.json()
            // The 7.x recording also carries code/stacktrace/exception (extended mode only).
            Shape.compare(json, fixture, notWritten: ["code", "stacktrace", "exception"], context: "exception")
            #expect(json["message"] == .string("/nowhere"))
        }
    }

    @Test("user vs php-client/user.json, login vs login.json")
    func userAndLogin() async throws {
        let user = try Fixtures.load("php-client/user.json")
        let login = try Fixtures.load("php-client/login.json")
        try await withServer { _, client in
            let me = try await client.send("GET", "/api/v1/me").json()
            Shape.compare(me, user, context: "user")
            if let ours = me["properties"], let recorded = user["properties"] {
                Shape.compare(ours, recorded, nullable: ["tenantId"], context: "user.properties")
            }
            if let ours = me["extendedGroups"]?[0], let recorded = user["extendedGroups"]?[0] {
                Shape.compare(ours, recorded, context: "user.extendedGroups")
            }
            let response = try await client.sendJSON("POST", "/api/v1/automation/login", "{}")
            Shape.compare(try response.json(), login, context: "login")
        }
    }

    @Test("acls enricher vs the contextParameters.acls of php-client/document.json")
    func aclEnricher() async throws {
        let fixture = try Fixtures.load("php-client/document.json")
        try await withServer { _, client in
            let doc = try await client.create("Folder", name: "shared", title: "shared")
            let uid = doc["uid"]?.stringValue ?? ""
            let add = try await client.sendJSON("POST", "/api/v1/automation/Document.AddPermission",
                                                "{\"input\":\"\(uid)\",\"params\":{\"users\":[\"members\"],\"permission\":\"Write\"}}")
            #expect(add.status == 200)
            let json = try await client.send("GET", "/api/v1/id/\(uid)", headers: [("enrichers-document", "acls")]).json()
            let acls = try #require(json["contextParameters"]?["acls"]?.arrayValue)
            let recordedACL = try #require(fixture["contextParameters"]?["acls"]?[0])
            let recordedACE = try #require(recordedACL["aces"]?[0])
            #expect(acls.map { $0["name"]?.stringValue } == ["local", "inherited"])
            for acl in acls {
                Shape.compare(acl, recordedACL, context: "acl")
                for ace in acl["aces"]?.arrayValue ?? [] {
                    Shape.compare(ace, recordedACE, nullable: ["creator", "begin", "end"], context: "ace")
                }
            }
            #expect(acls[0]["aces"]?[0]?["id"] == .string("members:Write:true:Administrator::"))
        }
    }

    @Test("blob property vs spec §2.2 (length is a string)")
    func blobProperty() async throws {
        try await withServer { server, client in
            let doc = try await client.createFile(name: "r é.txt", content: Data("12345".utf8))
            let blob = try #require(doc["properties"]?["file:content"])
            #expect(blob.keys == ["name", "mime-type", "encoding", "digestAlgorithm", "digest", "length", "data"])
            #expect(blob["length"] == .string("5"))
            #expect(blob["digestAlgorithm"] == .string("MD5"))
            #expect(blob["digest"] == .string("827ccb0eea8a706c4c34a16891f84e7b"))
            let uid = doc["uid"]?.stringValue ?? ""
            #expect(blob["data"] == .string("\(server.baseURL.absoluteString)/nxfile/default/\(uid)/file:content/r%20%C3%A9.txt?changeToken=1-0"))
            let empty = try await client.create("File", name: "empty")
            #expect(empty["properties"]?["file:content"] == .null)
        }
    }
}

import Foundation
import Testing
@testable import NuxeoTestServer

@Suite("Documents")
struct DocumentTests {
    @Test("@children over 120 children with pageSize 50 uses the -2 counts")
    func minusTwoPaging() async throws {
        try await withServer { _, client in
            let folder = try await client.create("Folder", name: "many", title: "many")
            let uid = folder["uid"]?.stringValue ?? ""
            for i in 0..<120 {
                try await client.create("Note", name: String(format: "n%03d", i), title: String(format: "t%03d", i),
                                        under: "/api/v1/id/\(uid)", headers: [])
            }
            var titles: [String] = []
            for page in 0..<3 {
                let json = try await client.send("GET", "/api/v1/id/\(uid)/@children?pageSize=50&currentPageIndex=\(page)").json()
                #expect(json["resultsCount"] == .int(-2))
                #expect(json["totalSize"] == .int(-2))
                #expect(json["numberOfPages"] == .int(0))
                #expect(json["pageCount"] == .int(0))
                #expect(json["isPaginable"] == .bool(true))
                #expect(json["currentPageSize"] == .int(page == 2 ? 20 : 50))
                #expect(json["currentPageOffset"] == .int(Int64(page * 50)))
                #expect(json["isNextPageAvailable"] == .bool(page < 2))
                titles += (json["entries"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
            }
            #expect(titles == (0..<120).map { String(format: "t%03d", $0) })
            let small = try await client.send("GET", workspace + "/@children").json()
            #expect(small["resultsCount"] == .int(1))
            #expect(small["pageSize"] == .int(50))
            let clamped = try await client.send("GET", "/api/v1/id/\(uid)/@children?pageSize=5000").json()
            #expect(clamped["pageSize"] == .int(1000))
            #expect(clamped["resultsCount"] == .int(120))
        }
    }

    @Test("names are trimmed, truncated to 24, slashes replaced, clashes suffixed (no 409)")
    func names() async throws {
        try await withServer { _, client in
            let long = try await client.create("File", name: "  abcdefghijklmnopqrstuvwxyz0123  ")
            #expect(long["path"]?.stringValue?.hasSuffix("/abcdefghijklmnopqrstuvwx") == true)
            let slashed = try await client.create("File", name: "a/b\\c")
            #expect(slashed["path"]?.stringValue?.hasSuffix("/a-b-c") == true)
            let first = try await client.create("File", name: "same")
            let second = try await client.create("File", name: "same")
            #expect(first["path"]?.stringValue?.hasSuffix("/same") == true)
            let secondName = second["path"]?.stringValue?.split(separator: "/").last.map(String.init) ?? ""
            #expect(secondName.hasPrefix("same.") && Int(secondName.dropFirst(5)) != nil)
            let punct = try await client.create("File", name: "?!..")
            let punctName = punct["path"]?.stringValue?.split(separator: "/").last.map(String.init) ?? ""
            #expect(!punctName.isEmpty && punctName.allSatisfy(\.isNumber))
        }
    }

    @Test("create errors: missing type/name, unknown type, non-folderish parent")
    func createErrors() async throws {
        try await withServer { _, client in
            let missing = try await client.sendJSON("POST", workspace, "{\"entity-type\":\"document\",\"type\":\"File\"}")
            #expect(missing.status == 400)
            #expect(try missing.json()["message"] == .string("type or name property is missing"))
            let unknown = try await client.sendJSON("POST", workspace, "{\"entity-type\":\"document\",\"type\":\"Foo\",\"name\":\"x\"}")
            #expect(unknown.status == 400)
            #expect(try unknown.json()["message"] == .string("Type: Foo does not exist"))
            let file = try await client.create("File", name: "leaf")
            let inside = try await client.sendJSON("POST", "/api/v1/id/\(file["uid"]?.stringValue ?? "")",
                                                   "{\"entity-type\":\"document\",\"type\":\"File\",\"name\":\"x\"}")
            #expect(inside.status == 400)
        }
    }

    @Test("PUT with a stale changeToken is a 409; touch(path:) simulates a concurrent edit")
    func staleChangeToken() async throws {
        try await withServer { server, client in
            let doc = try await client.create("File", name: "doc", title: "v1")
            let uid = doc["uid"]?.stringValue ?? ""
            let token = doc["changeToken"]?.stringValue ?? ""
            #expect(token == "1-0")
            let ok = try await client.sendJSON("PUT", "/api/v1/id/\(uid)",
                                               "{\"entity-type\":\"document\",\"uid\":\"\(uid)\",\"changeToken\":\"\(token)\",\"properties\":{\"dc:title\":\"v2\"}}",
                                               headers: [("properties", "*")])
            #expect(ok.status == 200)
            let updated = try ok.json()
            #expect(updated["changeToken"] == .string("2-1"))
            #expect(updated["title"] == .string("v2"))
            #expect(updated["path"] == doc["path"], "a title change does not rename")
            server.touch(path: doc["path"]?.stringValue ?? "")
            let stale = try await client.sendJSON("PUT", "/api/v1/id/\(uid)",
                                                  "{\"entity-type\":\"document\",\"uid\":\"\(uid)\",\"changeToken\":\"2-1\",\"properties\":{\"dc:title\":\"v3\"}}")
            #expect(stale.status == 409)
            #expect(try stale.json()["message"] == .string(uid))
            let blind = try await client.sendJSON("PUT", "/api/v1/id/\(uid)", "{\"entity-type\":\"document\",\"properties\":{\"dc:description\":\"d\"}}")
            #expect(blind.status == 200)
        }
    }

    @Test("DELETE is permanent and recursive; documentCount follows")
    func delete() async throws {
        try await withServer { server, client in
            let before = server.documentCount()
            #expect(before == 4)
            let folder = try await client.create("Folder", name: "f")
            try await client.create("File", name: "g", under: "/api/v1/id/\(folder["uid"]?.stringValue ?? "")")
            #expect(server.documentCount() == 6)
            let response = try await client.send("DELETE", "/api/v1/id/\(folder["uid"]?.stringValue ?? "")")
            #expect(response.status == 204)
            #expect(server.documentCount() == before)
            #expect(try await client.send("GET", workspace + "/f").status == 404)
        }
    }

    @Test("breadcrumb enricher lists the ancestors below the root and the document itself")
    func breadcrumb() async throws {
        try await withServer { _, client in
            let folder = try await client.create("Folder", name: "crumb", title: "Crumb")
            let json = try await client.send("GET", "/api/v1/id/\(folder["uid"]?.stringValue ?? "")",
                                             headers: [("enrichers-document", "breadcrumb")]).json()
            let crumb = try #require(json["contextParameters"]?["breadcrumb"])
            #expect(crumb["entity-type"] == .string("documents"))
            let paths = (crumb["entries"]?.arrayValue ?? []).compactMap { $0["path"]?.stringValue }
            #expect(paths == ["/default-domain", "/default-domain/workspaces", "/default-domain/workspaces/strata",
                              "/default-domain/workspaces/strata/crumb"])
        }
    }

    @Test("repository selection and unknown endpoints")
    func repositories() async throws {
        try await withServer { _, client in
            #expect(try await client.send("GET", "/api/v1/repo/default/path/default-domain").status == 200)
            #expect(try await client.send("GET", "/api/v1/repo/other/path/default-domain").status == 404)
            #expect(try await client.send("GET", "/api/v1/path/default-domain", headers: [("X-NXRepository", "other")]).status == 404)
            let unknown = try await client.send("GET", "/api/v1/nothing-here")
            #expect(unknown.status == 404)
            #expect(try unknown.json()["entity-type"] == .string("exception"))
            #expect(try await client.send("GET", "/runningstatus", auth: .none).status == 200)
            let cmis = try await client.send("GET", "/json/cmis").json()
            #expect(cmis["default"]?["productVersion"] == .string("10.10"))
        }
    }
}

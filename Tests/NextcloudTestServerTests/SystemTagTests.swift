import Foundation
import Testing
@testable import NextcloudTestServer

@Suite("System tags")
struct SystemTagTests {
    @Test("create, list, assign, filter by tag, unassign; a duplicate name is 409")
    func tags() async throws {
        try await withServer { server, client in
            let file = server.seedFile(user: "alice", path: "a.txt", contents: Data("a".utf8))
            let created = try await client.send("POST", "/remote.php/dav/systemtags/", headers: [("Content-Type", "application/json")], text: #"{"name":"urgent"}"#)
            #expect(created.status == 201)
            let location = try #require(created.header("Content-Location"))
            let tag = try #require(location.split(separator: "/").last.map(String.init))
            let duplicate = try await client.send("POST", "/remote.php/dav/systemtags/", text: #"{"name":"urgent"}"#)
            #expect(duplicate.status == 409)
            let listing = try await client.send("PROPFIND", "/remote.php/dav/systemtags/", headers: [("Depth", "1")])
            #expect(listing.text.contains("<oc:display-name>urgent</oc:display-name>"))
            #expect(try await client.send("PUT", "/remote.php/dav/systemtags-relations/files/\(file)/\(tag)").status == 201)
            let onFile = try await client.send("PROPFIND", "/remote.php/dav/systemtags-relations/files/\(file)", headers: [("Depth", "1")])
            #expect(onFile.text.contains("<oc:id>\(tag)</oc:id>"))
            let filter = """
                <oc:filter-files xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:prop><oc:fileid/></d:prop>\
                <oc:filter-rules><oc:systemtag>\(tag)</oc:systemtag></oc:filter-rules></oc:filter-files>
                """
            let found = try await client.send("REPORT", "/remote.php/dav/files/alice", text: filter)
            #expect(found.text.contains("<oc:fileid>\(file)</oc:fileid>"))
            #expect(try await client.send("DELETE", "/remote.php/dav/systemtags-relations/files/\(file)/\(tag)").status == 204)
            let none = try await client.send("REPORT", "/remote.php/dav/files/alice", text: filter)
            #expect(!none.text.contains("<d:response>"))
            let foreign = try await client.send("PUT", "/remote.php/dav/systemtags-relations/files/999999/\(tag)")
            #expect(foreign.status == 404)
        }
    }
}

import Foundation
import Testing
@testable import NextcloudTestServer

@Suite("Trash bin and SEARCH")
struct TrashAndSearchTests {
    let files = "/remote.php/dav/files/alice"

    @Test("DELETE goes to the trash; PROPFIND lists it; MOVE to restore brings it back; DELETE empties")
    func trash() async throws {
        try await withServer { server, client in
            server.seedFile(user: "alice", path: "docs/a.txt", contents: Data("a".utf8))
            server.seedFile(user: "alice", path: "b.txt", contents: Data("b".utf8))
            #expect(try await client.send("DELETE", files + "/docs/a.txt").status == 204)
            #expect(try await client.send("DELETE", files + "/b.txt").status == 204)
            let names = server.trashNames(user: "alice")
            #expect(names.count == 2)
            let listing = try await client.send("PROPFIND", "/remote.php/dav/trashbin/alice/trash", headers: [("Depth", "1")], text: RequestBodies.propfind([
                "nc:trashbin-filename", "nc:trashbin-original-location", "nc:trashbin-deletion-time", "d:getcontentlength",
            ]))
            #expect(listing.status == 207)
            #expect(listing.text.contains("<nc:trashbin-filename>a.txt</nc:trashbin-filename><nc:trashbin-original-location>docs/a.txt</nc:trashbin-original-location>"))
            let entry = try #require(names.first { $0.hasPrefix("a.txt.d") })
            let restore = try await client.send("MOVE", "/remote.php/dav/trashbin/alice/trash/\(entry)", headers: [("Destination", "/remote.php/dav/trashbin/alice/restore/a.txt")])
            #expect(restore.status == 201)
            #expect(server.contents(user: "alice", path: "docs/a.txt") == Data("a".utf8))
            #expect(try await client.send("DELETE", "/remote.php/dav/trashbin/alice/trash").status == 204)
            #expect(server.trashNames(user: "alice").isEmpty)
        }
    }

    static func search(_ scope: String, where condition: String, select: String = "<d:displayname/>", extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <d:searchrequest xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns">
        <d:basicsearch><d:select><d:prop>\(select)</d:prop></d:select>
        <d:from><d:scope><d:href>\(scope)</d:href><d:depth>infinity</d:depth></d:scope></d:from>
        <d:where>\(condition)</d:where>\(extra)</d:basicsearch></d:searchrequest>
        """
    }

    @Test("SEARCH: the manual's example body, comparisons, and/or/not, is-collection, order and limit")
    func search() async throws {
        try await withServer(.init(users: ["test": "pw"])) { server, client in
            server.seedFile(user: "test", path: "Documents/small.txt", contents: Data("1".utf8))
            server.seedFile(user: "test", path: "Documents/big.md", contents: Data(repeating: 0x41, count: 50))
            server.seedFile(user: "test", path: "Documents/sub/photo.jpg", contents: Data(repeating: 0, count: 20))
            server.seedFile(user: "test", path: "Other/x.txt", contents: Data("x".utf8))
            let example = try await client.send("SEARCH", "/remote.php/dav/", headers: [("Content-Type", "text/xml")], body: try Fixtures.data("req-search-basicsearch-nc-docs.xml"))
            #expect(example.status == 207)
            let hrefs = example.text.components(separatedBy: "<d:href>").dropFirst().map { $0.components(separatedBy: "</d:href>")[0] }
            #expect(hrefs == ["/remote.php/dav/files/test/Documents/small.txt", "/remote.php/dav/files/test/Documents/big.md"])
            #expect(example.text.contains("<d:displayname>small.txt</d:displayname>"))
            let folders = try await client.send("SEARCH", "/remote.php/dav", body: Data(Self.search("/files/test", where: "<d:is-collection/>").utf8))
            #expect(folders.text.components(separatedBy: "<d:response>").count - 1 == 3)
            let combined = Self.search("/files/test", where: """
                <d:and><d:gt><d:prop><oc:size/></d:prop><d:literal>5</d:literal></d:gt>\
                <d:not><d:like><d:prop><d:displayname/></d:prop><d:literal>%.JPG</d:literal></d:like></d:not>\
                <d:not><d:is-collection/></d:not></d:and>
                """, extra: "<d:orderby><d:order><d:prop><oc:size/></d:prop><d:descending/></d:order></d:orderby><d:limit><d:nresults>1</d:nresults></d:limit>")
            let found = try await client.send("SEARCH", "/remote.php/dav/", body: Data(combined.utf8))
            #expect(found.text.contains("<d:href>/remote.php/dav/files/test/Documents/big.md</d:href>"))
            #expect(found.text.components(separatedBy: "<d:response>").count - 1 == 1)
            let malformed = try await client.send("SEARCH", "/remote.php/dav/", text: "<d:searchrequest xmlns:d=\"DAV:\"><d:basicsearch>")
            #expect(malformed.status == 400)
            #expect(malformed.text.contains("Sabre\\DAV\\Exception\\BadRequest"))
            let unsortable = try await client.send("SEARCH", "/remote.php/dav/", text: Self.search("/files/test", where: "<d:is-collection/>", extra: "<d:orderby><d:order><d:prop><oc:fileid/></d:prop><d:ascending/></d:order></d:orderby>"))
            #expect(unsortable.status == 400, "oc:fileid is not sortable")
            let plainOrder = try await client.send("SEARCH", "/remote.php/dav/", text: Self.search("/files/test", where: "<d:is-collection/>", extra: "<d:orderby/>"))
            #expect(plainOrder.status == 207)
            let unknown = try await client.send("SEARCH", "/remote.php/dav/", text: Self.search("/files/test", where: "<d:eq><d:prop><d:getetag/></d:prop><d:literal>x</d:literal></d:eq>"))
            #expect(unknown.status == 400)
        }
        try await withServer(.init(search: false)) { _, client in
            let off = try await client.send("SEARCH", "/remote.php/dav/", text: Self.search("/files/alice", where: "<d:is-collection/>"))
            #expect(off.status == 501)
        }
    }
}

@Suite("ownCloud trash bin")
struct OwnCloudTrashTests {
    @Test("trash-bin entries by file id; MOVE back into the files restores, Overwrite F refuses a taken place")
    func restore() async throws {
        try await withServer(.init(flavor: .owncloud)) { server, client in
            let id = server.seedFile(user: "alice", path: "docs/a.txt", contents: Data("a".utf8))
            _ = try await client.send("DELETE", "/remote.php/dav/files/alice/docs/a.txt")
            let listing = try await client.send("PROPFIND", "/remote.php/dav/trash-bin/alice/", headers: [("Depth", "1")], text: RequestBodies.propfind([
                "oc:trashbin-original-filename", "oc:trashbin-original-location",
            ]))
            #expect(listing.text.contains("<d:href>/remote.php/dav/trash-bin/alice/\(id)</d:href><d:propstat><d:prop><oc:trashbin-original-filename>a.txt</oc:trashbin-original-filename><oc:trashbin-original-location>docs/a.txt</oc:trashbin-original-location>"))
            server.seedFile(user: "alice", path: "docs/a.txt", contents: Data("new".utf8))
            let refused = try await client.send("MOVE", "/remote.php/dav/trash-bin/alice/\(id)", headers: [
                ("Destination", server.baseURL.absoluteString + "/remote.php/dav/files/alice/docs/a.txt"), ("Overwrite", "F"),
            ])
            #expect(refused.status == 412)
            let restored = try await client.send("MOVE", "/remote.php/dav/trash-bin/alice/\(id)", headers: [
                ("Destination", "/remote.php/dav/files/alice/docs/old-a.txt"),
            ])
            #expect(restored.status == 201)
            #expect(server.contents(user: "alice", path: "docs/old-a.txt") == Data("a".utf8))
            #expect(server.fileID(user: "alice", path: "docs/old-a.txt") == id)
            let other = try await client.send("PROPFIND", "/remote.php/dav/trash-bin/bob/", headers: [("Depth", "1")])
            #expect(other.status == 404)
        }
    }
}

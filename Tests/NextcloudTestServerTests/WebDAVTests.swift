import Foundation
import Testing
@testable import NextcloudTestServer

@Suite("WebDAV files")
struct WebDAVTests {
    let files = "/remote.php/dav/files/alice"

    @Test("PUT, GET with Range, HEAD; X-OC-Mtime accepted; OC-FileId and ETag headers")
    func putAndGet() async throws {
        try await withServer { server, client in
            let put = try await client.send("PUT", files + "/a.txt", headers: [("X-OC-Mtime", "1500000000")], text: "hello world")
            #expect(put.status == 201)
            #expect(put.header("X-OC-MTime") == "accepted")
            let fileID = try #require(server.fileID(user: "alice", path: "a.txt"))
            #expect(put.header("OC-FileId") == String(format: "%08d", fileID) + server.instanceID)
            #expect(put.header("ETag") == put.header("OC-ETag"))
            let again = try await client.send("PUT", files + "/a.txt", text: "hello there")
            #expect(again.status == 204)
            #expect(again.header("ETag") != put.header("ETag"))
            let range = try await client.send("GET", files + "/a.txt", headers: [("Range", "bytes=6-")])
            #expect(range.status == 206)
            #expect(range.text == "there")
            #expect(range.header("Content-Range") == "bytes 6-10/11")
            let head = try await client.send("HEAD", "/remote.php/webdav/a.txt")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "11")
            #expect(head.body.isEmpty)
        }
    }

    @Test("a wrong OC-Checksum is a 400 Sabre error and nothing is stored; a right one is kept as sent (Nextcloud)")
    func checksum() async throws {
        try await withServer { server, client in
            let bad = try await client.send("PUT", files + "/c.txt", headers: [("OC-Checksum", "SHA1:0000000000000000000000000000000000000000")], text: "abc")
            #expect(bad.status == 400)
            #expect(bad.text.contains("<s:exception>Sabre\\DAV\\Exception\\BadRequest</s:exception>"))
            #expect(server.fileID(user: "alice", path: "c.txt") == nil)
            let good = try await client.send("PUT", files + "/c.txt", headers: [("OC-Checksum", "SHA1:a9993e364706816aba3e25717850c26c9cd0d89d")], text: "abc")
            #expect(good.status == 201)
            let props = try await client.send("PROPFIND", files + "/c.txt", headers: [("Depth", "0")], text: RequestBodies.propfind(["oc:checksums"]))
            #expect(props.text.contains("<oc:checksums><oc:checksum>SHA1:a9993e364706816aba3e25717850c26c9cd0d89d</oc:checksum></oc:checksums>"))
        }
    }

    @Test("ownCloud computes SHA1, MD5 and ADLER32 itself")
    func ownCloudChecksums() async throws {
        try await withServer(.init(flavor: .owncloud)) { _, client in
            _ = try await client.send("PUT", files + "/c.txt", text: "abc")
            let props = try await client.send("PROPFIND", files + "/c.txt", headers: [("Depth", "0")], text: RequestBodies.propfind(["oc:checksums", "oc:permissions"]))
            #expect(props.text.contains("SHA1:a9993e364706816aba3e25717850c26c9cd0d89d MD5:900150983cd24fb0d6963f7d28e17f72 ADLER32:024d0127"))
            #expect(props.text.contains("<oc:permissions>RDNVW</oc:permissions>"))
        }
    }

    @Test("MKCOL, MOVE, COPY with Overwrite; etags propagate to the parents")
    func treeOperations() async throws {
        try await withServer { server, client in
            #expect(try await client.send("MKCOL", files + "/d").status == 201)
            #expect(try await client.send("MKCOL", files + "/d/e").status == 201)
            let before = try await client.send("PROPFIND", files + "/d", headers: [("Depth", "0")], text: RequestBodies.propfind(["d:getetag"]))
            #expect(try await client.send("PUT", files + "/d/e/f.txt", text: "f").status == 201)
            let after = try await client.send("PROPFIND", files + "/d", headers: [("Depth", "0")], text: RequestBodies.propfind(["d:getetag"]))
            #expect(before.text != after.text)
            let move = try await client.send("MOVE", files + "/d/e/f.txt", headers: [("Destination", server.baseURL.absoluteString + files + "/g.txt")])
            #expect(move.status == 201)
            #expect(server.contents(user: "alice", path: "g.txt") == Data("f".utf8))
            let copy = try await client.send("COPY", files + "/g.txt", headers: [("Destination", files + "/d/g.txt")])
            #expect(copy.status == 201)
            let refused = try await client.send("COPY", files + "/g.txt", headers: [("Destination", files + "/d/g.txt"), ("Overwrite", "F")])
            #expect(refused.status == 412)
            let replaced = try await client.send("MOVE", files + "/g.txt", headers: [("Destination", "/remote.php/webdav/d/g.txt")])
            #expect(replaced.status == 204)
            let orphan = try await client.send("MOVE", files + "/d", headers: [("Destination", files + "/missing/d")])
            #expect(orphan.status == 409)
            let listing = try await client.send("PROPFIND", files + "/d", text: RequestBodies.propfind(["d:resourcetype"]))
            #expect(listing.text.contains("<d:href>/remote.php/dav/files/alice/d/e/</d:href>"))
            #expect(listing.text.contains("<d:href>/remote.php/dav/files/alice/d/g.txt</d:href>"))
        }
    }

    @Test("authentication: password, app password, bearer token; 401 with a Sabre body otherwise")
    func authentication() async throws {
        let configuration = NextcloudTestServer.Configuration(appPasswords: ["app-pw-1": "alice"], bearerTokens: ["tok": "alice"])
        try await withServer(configuration) { server, client in
            #expect(try await client.send("PROPFIND", files, headers: [("Depth", "0")]).status == 207)
            let app = client.with(authorization: DAVClient.basic("alice", "app-pw-1"))
            #expect(try await app.send("PROPFIND", files, headers: [("Depth", "0")]).status == 207)
            let bearer = client.with(authorization: "Bearer tok")
            #expect(try await bearer.send("PROPFIND", files, headers: [("Depth", "0")]).status == 207)
            let wrong = try await client.with(authorization: DAVClient.basic("alice", "nope")).send("PROPFIND", files)
            #expect(wrong.status == 401)
            #expect(wrong.header("WWW-Authenticate")?.hasPrefix("Basic realm=\"Nextcloud\"") == true)
            #expect(wrong.text.contains("Sabre\\DAV\\Exception\\NotAuthenticated"))
            let none = try await client.with(authorization: nil).send("GET", files + "/x")
            #expect(none.status == 401)
            let other = try await client.send("PROPFIND", "/remote.php/dav/files/bob/", headers: [("Depth", "0")])
            #expect(other.status == 404)
            #expect(server.requests().allSatisfy { !($0.header("Authorization") ?? "").contains("secret") })
            #expect(server.requests().first?.header("Authorization") == "Basic <redacted>")
        }
    }

    @Test("malformed PROPFIND bodies and external entities are a 400, not a crash")
    func malformed() async throws {
        try await withServer { _, client in
            let broken = try await client.send("PROPFIND", files, text: "<d:propfind xmlns:d=\"DAV:\"><d:prop>")
            #expect(broken.status == 400)
            let entity = try await client.send("PROPFIND", files, text: "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><d:propfind xmlns:d=\"DAV:\"><d:prop>&e;</d:prop></d:propfind>")
            #expect(entity.status == 400)
            #expect(!entity.text.contains("root:"))
        }
    }

    @Test("reserved and invalid names are a 400 InvalidPath; an encoded slash separates segments")
    func names() async throws {
        try await withServer { server, client in
            let reserved = try await client.send("PUT", files + "/.htaccess", text: "x")
            #expect(reserved.status == 400)
            #expect(reserved.text.contains("<s:message>File name is a reserved word</s:message>"))
            let backslash = try await client.send("MKCOL", files + "/a%5Cb")
            #expect(backslash.status == 400)
            #expect(try await client.send("MKCOL", files + "/d").status == 201)
            let encodedSlash = try await client.send("PUT", files + "/d%2Fe.txt", text: "e")
            #expect(encodedSlash.status == 201)
            #expect(server.contents(user: "alice", path: "d/e.txt") == Data("e".utf8))
            let unicode = try await client.send("PUT", files + "/%C3%A9t%C3%A9%20%26%20%2B.txt", text: "u")
            #expect(unicode.status == 201)
            let listing = try await client.send("PROPFIND", files, text: RequestBodies.propfind(["d:resourcetype"]))
            #expect(listing.text.contains("<d:href>/remote.php/dav/files/alice/%C3%A9t%C3%A9%20%26%20%2B.txt</d:href>"))
        }
    }

    @Test("quota props: -3 when unlimited; a PUT over the quota is 507")
    func quota() async throws {
        try await withServer(.init(quotaBytes: 10)) { _, client in
            #expect(try await client.send("PUT", files + "/a", text: "12345").status == 201)
            let props = try await client.send("PROPFIND", files, headers: [("Depth", "0")], text: RequestBodies.propfind(["d:quota-available-bytes", "d:quota-used-bytes"]))
            #expect(props.text.contains("<d:quota-available-bytes>5</d:quota-available-bytes><d:quota-used-bytes>5</d:quota-used-bytes>"))
            #expect(try await client.send("PUT", files + "/b", text: "123456").status == 507)
        }
        try await withServer { _, client in
            let props = try await client.send("PROPFIND", files, headers: [("Depth", "0")], text: RequestBodies.propfind(["d:quota-available-bytes"]))
            #expect(props.text.contains("<d:quota-available-bytes>-3</d:quota-available-bytes>"))
        }
    }
}

import Foundation
import Testing
@testable import NextcloudTestServer

/// Behaviours official clients (pyocclient 0.6, nc-py-api 0.30.3) rely on, answered as ownCloud 10
/// and Nextcloud answer them (server source and developer manual; no recording covers them).
@Suite("Fidelity to the real servers")
struct RealServerFidelityTests {
    let files = "/remote.php/dav/files/alice"

    static func hrefs(_ text: String) -> [String] {
        text.components(separatedBy: "<d:href>").dropFirst().map { $0.components(separatedBy: "</d:href>")[0] }
    }

    // MARK: - ownCloud chunking v1

    @Test("chunking v1: chunks out of order stay invisible, the last one assembles the file with OC-FileId and an unquoted ETag", arguments: [
        NextcloudTestServer.Configuration.Flavor.nextcloud, .owncloud,
    ])
    func legacyChunking(flavor: NextcloudTestServer.Configuration.Flavor) async throws {
        try await withServer(.init(flavor: flavor)) { server, client in
            let base = "/remote.php/webdav/big.bin-chunking-4242-3-"
            let chunked = [("OC-Chunked", "1"), ("X-OC-Mtime", "1600000000")]
            let second = try await client.send("PUT", base + "1", headers: chunked, text: "def")
            #expect(second.status == 201)
            #expect(second.header("ETag") == nil)
            #expect(second.header("OC-FileId") == nil)
            let third = try await client.send("PUT", base + "2", headers: chunked, text: "ghi")
            #expect(third.status == 201)
            #expect(server.legacyChunks(user: "alice") == ["big.bin-chunking-4242-3-1", "big.bin-chunking-4242-3-2"])
            let listing = try await client.send("PROPFIND", files, headers: [("Depth", "1")], text: RequestBodies.propfind(["d:getetag"]))
            #expect(Self.hrefs(listing.text) == [files + "/"], "chunks are never files")
            #expect(server.contents(user: "alice", path: "big.bin") == nil)
            let last = try await client.send("PUT", base + "0", headers: chunked, text: "abc")
            #expect(last.status == 201)
            #expect(server.contents(user: "alice", path: "big.bin") == Data("abcdefghi".utf8))
            let id = try #require(server.fileID(user: "alice", path: "big.bin"))
            #expect(last.header("OC-FileId") == String(format: "%08d", id) + server.instanceID)
            let etag = try #require(last.header("ETag"))
            #expect(!etag.hasPrefix("\""), "createFileChunked returns the etag bare")
            #expect(last.header("OC-ETag") == etag)
            #expect(last.header("X-OC-MTime") == "accepted")
            #expect(server.legacyChunks(user: "alice").isEmpty)
            let props = try await client.send("PROPFIND", files + "/big.bin", headers: [("Depth", "0")], text: RequestBodies.propfind(["d:getetag", "d:getlastmodified"]))
            #expect(props.text.contains("<d:getetag>&quot;\(etag)&quot;</d:getetag>"))
            #expect(props.text.contains("Sun, 13 Sep 2020 12:26:40 GMT"))
        }
    }

    @Test("chunking v1 over an existing file: each chunk names the file's id and etag; the file changes only with the last chunk")
    func legacyChunkingOverwrite() async throws {
        try await withServer { server, client in
            let id = server.seedFile(user: "alice", path: "docs/a.txt", contents: Data("old".utf8))
            let before = try await client.send("HEAD", files + "/docs/a.txt")
            let first = try await client.send("PUT", files + "/docs/a.txt-chunking-7-2-0", headers: [("OC-Chunked", "1")], text: "new ")
            #expect(first.status == 201)
            #expect(first.header("OC-FileId") == String(format: "%08d", id) + server.instanceID)
            #expect(first.header("OC-ETag") == before.header("ETag"))
            #expect(first.header("ETag") == nil)
            #expect(server.contents(user: "alice", path: "docs/a.txt") == Data("old".utf8))
            let last = try await client.send("PUT", files + "/docs/a.txt-chunking-7-2-1", headers: [("OC-Chunked", "1")], text: "text")
            #expect(last.status == 201)
            #expect(server.contents(user: "alice", path: "docs/a.txt") == Data("new text".utf8))
            #expect(server.fileID(user: "alice", path: "docs/a.txt") == id)
        }
    }

    @Test("chunking v1: a name that is no chunk name is 501, a missing folder 409; without OC-Chunked the name is a plain file")
    func legacyChunkingRefusals() async throws {
        try await withServer { server, client in
            let invalid = try await client.send("PUT", files + "/plain.bin", headers: [("OC-Chunked", "1")], text: "x")
            #expect(invalid.status == 501)
            #expect(invalid.text.contains("Invalid chunk name"))
            let missing = try await client.send("PUT", files + "/nope/a-chunking-1-2-0", headers: [("OC-Chunked", "1")], text: "x")
            #expect(missing.status == 409)
            #expect(server.legacyChunks(user: "alice").isEmpty)
            let plain = try await client.send("PUT", files + "/a-chunking-1-2-0", text: "x")
            #expect(plain.status == 201)
            #expect(server.contents(user: "alice", path: "a-chunking-1-2-0") == Data("x".utf8))
        }
    }

    // MARK: - Wrong credentials

    @Test("a wrong password is 401 on WebDAV, OPTIONS, every OCS route (capabilities included, in the OCS envelope); status.php stays public", arguments: [
        NextcloudTestServer.Configuration.Flavor.nextcloud, .owncloud,
    ])
    func wrongPassword(flavor: NextcloudTestServer.Configuration.Flavor) async throws {
        try await withServer(.init(flavor: flavor)) { _, client in
            let wrong = client.with(authorization: DAVClient.basic("alice", "wrong"))
            #expect(try await wrong.send("PROPFIND", files, headers: [("Depth", "0")]).status == 401)
            #expect(try await wrong.send("OPTIONS", files).status == 401)
            #expect(try await client.with(authorization: nil).send("OPTIONS", files).status == 200)
            for path in ["/ocs/v1.php/cloud/capabilities", "/ocs/v2.php/cloud/capabilities", "/ocs/v1.php/cloud/user",
                         "/ocs/v2.php/apps/files_sharing/api/v1/shares"] {
                let xml = try await wrong.ocs("GET", path)
                #expect(xml.status == 401, "\(path)")
                #expect(xml.text.contains("<statuscode>997</statuscode>"), "\(path)")
                let json = try await wrong.ocs("GET", path + "?format=json")
                #expect(json.status == 401, "\(path)")
                #expect(json.text.contains("\"statuscode\":997"), "\(path)")
            }
            let anonymous = try await client.with(authorization: nil).ocs("GET", "/ocs/v1.php/cloud/capabilities")
            #expect(anonymous.status == 200, "capabilities are public without credentials")
            let status = try await wrong.send("GET", "/status.php")
            #expect(status.status == 200)
            #expect(status.text.contains("\"installed\":true"))
            #expect(try await client.ocs("GET", "/ocs/v1.php/cloud/capabilities").status == 200)
        }
    }

    // MARK: - SEARCH on oc:fileid

    @Test("SEARCH on oc:fileid takes the number and the OC-FileId form (PHP's (int) of the literal)")
    func searchFileID() async throws {
        try await withServer { server, client in
            _ = server.seedFile(user: "alice", path: "other.txt", contents: Data("o".utf8))
            let put = try await client.send("PUT", files + "/wanted.txt", text: "w")
            let ocFileID = try #require(put.header("OC-FileId"))
            let id = try #require(server.fileID(user: "alice", path: "wanted.txt"))
            for literal in [String(id), ocFileID] {
                let body = TrashAndSearchTests.search("/files/alice", where: "<d:eq><d:prop><oc:fileid/></d:prop><d:literal>\(literal)</d:literal></d:eq>")
                let found = try await client.send("SEARCH", "/remote.php/dav/", headers: [("Content-Type", "text/xml")], text: body)
                #expect(found.status == 207, "\(literal)")
                #expect(Self.hrefs(found.text) == [files + "/wanted.txt"], "\(literal)")
            }
            let none = TrashAndSearchTests.search("/files/alice", where: "<d:eq><d:prop><oc:fileid/></d:prop><d:literal>oc123</d:literal></d:eq>")
            let empty = try await client.send("SEARCH", "/remote.php/dav/", headers: [("Content-Type", "text/xml")], text: none)
            #expect(empty.status == 207)
            #expect(Self.hrefs(empty.text).isEmpty)
        }
    }

    // MARK: - Depth infinity

    @Test("PROPFIND Depth: infinity lists the whole tree, each folder followed by its contents; Depth 1 and no Depth stay one level", arguments: [
        NextcloudTestServer.Configuration.Flavor.nextcloud, .owncloud,
    ])
    func depthInfinity(flavor: NextcloudTestServer.Configuration.Flavor) async throws {
        try await withServer(.init(flavor: flavor)) { server, client in
            _ = server.seedFile(user: "alice", path: "a/b/c.txt", contents: Data("c".utf8))
            _ = server.seedFile(user: "alice", path: "a/d.txt", contents: Data("d".utf8))
            _ = server.seedFile(user: "alice", path: "z.txt", contents: Data("z".utf8))
            let body = RequestBodies.propfind(["d:resourcetype"])
            let all = try await client.send("PROPFIND", files, headers: [("Depth", "infinity")], text: body)
            #expect(all.status == 207)
            #expect(Self.hrefs(all.text) == [
                files + "/", files + "/a/", files + "/a/b/", files + "/a/b/c.txt", files + "/a/d.txt", files + "/z.txt",
            ])
            let one = try await client.send("PROPFIND", files, headers: [("Depth", "1")], text: body)
            #expect(Self.hrefs(one.text) == [files + "/", files + "/a/", files + "/z.txt"])
            let absent = try await client.send("PROPFIND", files + "/a", text: body)
            #expect(Self.hrefs(absent.text) == [files + "/a/", files + "/a/b/", files + "/a/d.txt"])
        }
    }

    // MARK: - Versions

    @Test("an overwrite keeps the old content as a version; PROPFIND lists it, GET reads it, MOVE to restore brings it back")
    func versions() async throws {
        try await withServer { server, client in
            #expect(try await client.send("PUT", files + "/v.txt", headers: [("X-OC-Mtime", "1500000000")], text: "first").status == 201)
            #expect(try await client.send("PUT", files + "/v.txt", headers: [("X-OC-Mtime", "1500000100")], text: "second").status == 204)
            #expect(try await client.send("PUT", files + "/v.txt", headers: [("X-OC-Mtime", "1500000200")], text: "third").status == 204)
            #expect(server.versions(user: "alice", path: "v.txt") == ["1500000100", "1500000000"])
            let id = try #require(server.fileID(user: "alice", path: "v.txt"))
            let versions = "/remote.php/dav/versions/alice/versions/\(id)"
            let listing = try await client.send("PROPFIND", versions, headers: [("Depth", "1")], text: RequestBodies.propfind([
                "d:getcontentlength", "d:getlastmodified", "d:getetag", "oc:fileid",
            ]))
            #expect(listing.status == 207)
            #expect(Self.hrefs(listing.text) == [versions + "/", versions + "/1500000100", versions + "/1500000000"])
            #expect(listing.text.contains("<d:getcontentlength>6</d:getcontentlength><d:getlastmodified>Fri, 14 Jul 2017 02:41:40 GMT</d:getlastmodified><d:getetag>1500000100</d:getetag>"))
            #expect(try await client.send("GET", versions + "/1500000000").text == "first")
            // VersionRoot reads the id with PHP's (int): the OC-FileId form names the same file.
            let ocID = String(format: "%08d", id) + server.instanceID
            let byOCID = try await client.send("PROPFIND", "/remote.php/dav/versions/alice/versions/" + ocID, headers: [("Depth", "1")], text: RequestBodies.propfind(["d:getetag"]))
            #expect(byOCID.status == 207)
            #expect(Self.hrefs(byOCID.text).count == 3)
            #expect(Self.hrefs(byOCID.text).allSatisfy { $0.hasPrefix("/remote.php/dav/versions/alice/versions/\(ocID)/") })
            let copy = try await client.send("COPY", versions + "/1500000000", headers: [("Destination", server.baseURL.absoluteString + "/remote.php/dav/versions/alice/restore/target")])
            #expect(copy.status == 403)
            let restore = try await client.send("MOVE", versions + "/1500000000", headers: [("Destination", server.baseURL.absoluteString + "/remote.php/dav/versions/alice/restore/target")])
            #expect(restore.status == 201)
            #expect(server.contents(user: "alice", path: "v.txt") == Data("first".utf8))
            #expect(server.fileID(user: "alice", path: "v.txt") == id)
            #expect(server.versions(user: "alice", path: "v.txt") == ["1500000200", "1500000100"], "the replaced content is kept, the restored one leaves the list")
            #expect(try await client.send("DELETE", versions + "/1500000100").status == 204)
            #expect(server.versions(user: "alice", path: "v.txt") == ["1500000200"])
            #expect(try await client.send("GET", versions + "/1500000100").status == 404)
            #expect(try await client.send("PROPFIND", "/remote.php/dav/versions/alice/versions/999999", headers: [("Depth", "1")]).status == 404)
            #expect(try await client.send("PROPFIND", "/remote.php/dav/versions/bob/versions/\(id)", headers: [("Depth", "1")]).status == 404)
        }
    }

    @Test("versions: an empty file makes none; capabilities say versioning on Nextcloud only; ownCloud has no versions tree")
    func versionsEdges() async throws {
        try await withServer { server, client in
            #expect(try await client.send("PUT", files + "/e.txt", text: "").status == 201)
            #expect(try await client.send("PUT", files + "/e.txt", text: "now").status == 204)
            #expect(server.versions(user: "alice", path: "e.txt") == [])
            let caps = try await client.ocs("GET", "/ocs/v1.php/cloud/capabilities?format=json")
            #expect(caps.text.contains("\"versioning\":true"))
        }
        try await withServer(.init(flavor: .owncloud)) { server, client in
            let id = server.seedFile(user: "alice", path: "o.txt", contents: Data("1".utf8))
            let answer = try await client.send("PROPFIND", "/remote.php/dav/versions/alice/versions/\(id)", headers: [("Depth", "1")])
            #expect(answer.status == 404)
        }
    }

    // MARK: - NFC

    @Test("an NFD name is stored, found and listed in NFC (PUT, MKCOL, MOVE Destination, OCS share path)", arguments: [
        NextcloudTestServer.Configuration.Flavor.nextcloud, .owncloud,
    ])
    func nfcNames(flavor: NextcloudTestServer.Configuration.Flavor) async throws {
        try await withServer(.init(flavor: flavor)) { server, client in
            let nfd = "Cafe\u{301}"
            let nfc = "Caf\u{E9}"
            let encodedNFD = "Cafe%CC%81"
            let encodedNFC = "Caf%C3%A9"
            #expect(try await client.send("MKCOL", files + "/" + encodedNFD).status == 201)
            #expect(try await client.send("PUT", files + "/" + encodedNFD + "/" + encodedNFD + ".txt", text: "x").status == 201)
            #expect(server.contents(user: "alice", path: "\(nfc)/\(nfc).txt") == Data("x".utf8))
            #expect(server.contents(user: "alice", path: "\(nfd)/\(nfd).txt") == nil)
            let listing = try await client.send("PROPFIND", files + "/" + encodedNFC, headers: [("Depth", "1")], text: RequestBodies.propfind(["d:getetag"]))
            let expected = [files + "/" + encodedNFC.lowercased() + "/", files + "/" + encodedNFC.lowercased() + "/" + encodedNFC.lowercased() + ".txt"]
            #expect(Self.hrefs(listing.text).map { $0.lowercased() } == expected.map { $0.lowercased() })
            #expect(try await client.send("GET", files + "/" + encodedNFD + "/" + encodedNFD + ".txt").text == "x", "an NFD request finds the NFC name")
            let move = try await client.send("MOVE", files + "/" + encodedNFC + "/" + encodedNFC + ".txt", headers: [("Destination", files + "/" + encodedNFD + "-moved.txt")])
            #expect(move.status == 201)
            #expect(server.contents(user: "alice", path: "\(nfc)-moved.txt") == Data("x".utf8))
            let share = try await client.ocs("POST", "/ocs/v1.php/apps/files_sharing/api/v1/shares", form: [("path", "/\(nfd)"), ("shareType", "3")])
            #expect(share.status == 200)
            #expect(share.text.contains("<statuscode>100</statuscode>"))
        }
    }
}

import Foundation
import Testing
@testable import NextcloudTestServer

@Suite("Chunking v2")
struct ChunkingTests {
    let uploads = "/remote.php/dav/uploads/alice/web-file-upload-1"
    let destination = [("Destination", "/remote.php/dav/files/alice/big.bin")]

    @Test("MKCOL, chunks, PROPFIND lists them for resume, MOVE .file assembles in numeric order")
    func upload() async throws {
        try await withServer { server, client in
            #expect(try await client.send("MKCOL", uploads, headers: destination).status == 201)
            #expect(try await client.send("PUT", uploads + "/00002", headers: destination + [("OC-Total-Length", "9")], text: "def").status == 201)
            #expect(try await client.send("PUT", uploads + "/00001", headers: destination + [("OC-Total-Length", "9")], text: "abc").status == 201)
            let listing = try await client.send("PROPFIND", uploads, headers: [("Depth", "1")], text: RequestBodies.propfind(["d:getcontentlength", "d:resourcetype"]))
            #expect(listing.status == 207)
            #expect(listing.text.contains("<d:href>/remote.php/dav/uploads/alice/web-file-upload-1/00001</d:href><d:propstat><d:prop><d:getcontentlength>3</d:getcontentlength>"))
            #expect(server.pendingChunks(user: "alice", upload: "web-file-upload-1") == ["00001", "00002"])
            #expect(try await client.send("PUT", uploads + "/00003", headers: destination, text: "ghi").status == 201)
            let wrongLength = try await client.send("MOVE", uploads + "/.file", headers: destination + [("OC-Total-Length", "10")])
            #expect(wrongLength.status == 400)
            #expect(wrongLength.text.contains("Chunks on server do not sum up to 10 but to 9 bytes"))
            let move = try await client.send("MOVE", uploads + "/.file", headers: destination + [
                ("OC-Total-Length", "9"), ("X-OC-Mtime", "1600000000"), ("OC-Checksum", "MD5:" + "8aa99b1f439ff71293e95357bac6fd94"),
            ])
            #expect(move.status == 201)
            #expect(move.header("OC-ETag") != nil)
            #expect(move.header("X-OC-MTime") == "accepted")
            #expect(server.contents(user: "alice", path: "big.bin") == Data("abcdefghi".utf8))
            #expect(server.pendingChunks(user: "alice", upload: "web-file-upload-1") == nil)
        }
    }

    @Test("a checksum mismatch on the final MOVE is refused and the upload stays for a retry")
    func corruptChunk() async throws {
        try await withServer { server, client in
            _ = try await client.send("MKCOL", uploads)
            server.faults.corruptNextChunkChecksum()
            _ = try await client.send("PUT", uploads + "/1", headers: destination, text: "abc")
            let move = try await client.send("MOVE", uploads + "/.file", headers: destination + [("OC-Checksum", "SHA1:a9993e364706816aba3e25717850c26c9cd0d89d")])
            #expect(move.status == 400)
            #expect(server.contents(user: "alice", path: "big.bin") == nil)
            #expect(server.pendingChunks(user: "alice", upload: "web-file-upload-1") == ["1"])
        }
    }

    @Test("a dropped chunk connection, then resume from the listing; DELETE aborts")
    func dropAndAbort() async throws {
        try await withServer { server, client in
            _ = try await client.send("MKCOL", uploads)
            server.faults.dropConnectionAfterChunks = 1
            #expect(try await client.send("PUT", uploads + "/1", headers: destination, text: "abc").status == 201)
            var dropped = false
            do {
                _ = try await client.send("PUT", uploads + "/2", headers: destination, text: "def")
            } catch {
                dropped = true
            }
            #expect(dropped)
            #expect(server.pendingChunks(user: "alice", upload: "web-file-upload-1") == ["1"])
            let resumed = try await client.send("PUT", uploads + "/2", headers: destination, text: "def")
            #expect(resumed.status == 201)
            let aborted = try await client.send("DELETE", uploads)
            #expect(aborted.status == 204)
            let late = try await client.send("PUT", uploads + "/3", headers: destination, text: "x")
            #expect(late.status == 404)
        }
    }

    @Test("without chunking the uploads tree is 404")
    func disabled() async throws {
        try await withServer(.init(chunking: false)) { _, client in
            let refused = try await client.send("MKCOL", uploads)
            #expect(refused.status == 404)
        }
    }
}

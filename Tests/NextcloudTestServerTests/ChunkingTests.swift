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

    @Test("version 2 (MKCOL with Destination): every request names the same Destination, chunks are numbered 1...10000")
    func versionTwoRules() async throws {
        try await withServer { server, client in
            #expect(try await client.send("MKCOL", uploads, headers: destination).status == 201)
            let missing = try await client.send("PUT", uploads + "/1", text: "abc")
            #expect(missing.status == 400)
            let other = try await client.send("PUT", uploads + "/1", headers: [("Destination", "/remote.php/dav/files/alice/other.bin")], text: "abc")
            #expect(other.status == 400)
            let named = try await client.send("PUT", uploads + "/part-a", headers: destination, text: "abc")
            #expect(named.status == 400)
            let tooHigh = try await client.send("PUT", uploads + "/10001", headers: destination, text: "abc")
            #expect(tooHigh.status == 400)
            #expect(server.pendingChunks(user: "alice", upload: "web-file-upload-1") == [])
            let absolute = [("Destination", server.baseURL.absoluteString + "/remote.php/dav/files/alice/big.bin")]
            #expect(try await client.send("PUT", uploads + "/10", headers: absolute, text: "def").status == 201)
            #expect(try await client.send("PUT", uploads + "/9", headers: destination, text: "abc").status == 201)
            let download = try await client.send("GET", uploads + "/9", headers: destination)
            #expect(download.status == 405, "chunks cannot be downloaded")
            let wrongMove = try await client.send("MOVE", uploads + "/.file", headers: [("Destination", "/remote.php/dav/files/alice/other.bin")])
            #expect(wrongMove.status == 400)
            let move = try await client.send("MOVE", uploads + "/.file", headers: destination)
            #expect(move.status == 201)
            #expect(server.contents(user: "alice", path: "big.bin") == Data("abcdef".utf8))
        }
    }

    @Test("version 1 (MKCOL without Destination): any chunk names, assembled in name order")
    func versionOne() async throws {
        try await withServer { server, client in
            #expect(try await client.send("MKCOL", uploads).status == 201)
            #expect(try await client.send("PUT", uploads + "/b-part", text: "2").status == 201)
            #expect(try await client.send("PUT", uploads + "/a-part", text: "1").status == 201)
            let move = try await client.send("MOVE", uploads + "/.file", headers: destination)
            #expect(move.status == 201)
            #expect(server.contents(user: "alice", path: "big.bin") == Data("12".utf8))
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

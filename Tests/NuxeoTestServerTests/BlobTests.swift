import Foundation
import Testing
@testable import NuxeoTestServer

@Suite("Blob download")
struct BlobTests {
    static let content = Data((0..<200_000).map { UInt8($0 % 251) })

    func makeFile(_ client: TestClient) async throws -> (uid: String, digest: String) {
        let doc = try await client.createFile(name: "data.bin", content: Self.content, mime: "application/octet-stream")
        return (doc["uid"]?.stringValue ?? "", doc["properties"]?["file:content"]?["digest"]?.stringValue ?? "")
    }

    @Test("headers, single Range 206, multi-range and out-of-range 200, If-None-Match 304, HEAD")
    func ranges() async throws {
        try await withServer { _, client in
            let (uid, digest) = try await makeFile(client)
            let path = "/api/v1/id/\(uid)/@blob/file:content"
            let full = try await client.send("GET", path)
            #expect(full.status == 200)
            #expect(full.body == Self.content)
            #expect(full.header("ETag") == "\"\(digest)\"")
            #expect(full.header("Accept-Ranges") == "bytes")
            #expect(full.header("Content-Length") == String(Self.content.count))
            #expect(full.header("Content-Disposition") == "attachment; filename=data.bin")
            #expect(full.header("Content-Type") == "application/octet-stream")
            #expect(full.header("Last-Modified")?.hasSuffix("GMT") == true)
            let part = try await client.send("GET", path, headers: [("Range", "bytes=10-19")])
            #expect(part.status == 206)
            #expect(part.header("Content-Range") == "bytes 10-19/\(Self.content.count)")
            #expect(part.body == Self.content.subdata(in: 10..<20))
            let open = try await client.send("GET", path, headers: [("Range", "bytes=199990-")])
            #expect(open.status == 206 && open.body.count == 10)
            let suffix = try await client.send("GET", path, headers: [("Range", "bytes=-5")])
            #expect(suffix.status == 206 && suffix.body == Self.content.suffix(5))
            let multi = try await client.send("GET", path, headers: [("Range", "bytes=0-1,5-6")])
            #expect(multi.status == 200 && multi.body.count == Self.content.count)
            let beyond = try await client.send("GET", path, headers: [("Range", "bytes=900000-")])
            #expect(beyond.status == 200, "Nuxeo has no 416")
            let cached = try await client.send("GET", path, headers: [("If-None-Match", "\"\(digest)\"")])
            #expect(cached.status == 304 && cached.body.isEmpty)
            #expect(try await client.send("GET", path, headers: [("If-None-Match", "*")]).status == 304)
            #expect(try await client.send("GET", path, headers: [("If-None-Match", "\"other\"")]).status == 200)
            let head = try await client.send("HEAD", path)
            #expect(head.status == 200 && head.header("Content-Length") == String(Self.content.count))
            #expect(try await client.send("GET", "/api/v1/repo/default/id/\(uid)/@blob/file:content").status == 200)
            #expect(try await client.send("GET", "/nxfile/default/\(uid)/file:content/data.bin").body == Self.content)
            let none = try await client.create("File", name: "empty")
            let missing = try await client.send("GET", "/api/v1/id/\(none["uid"]?.stringValue ?? "")/@blob/file:content")
            #expect(missing.status == 404)
            #expect(try missing.json()["entity-type"] == .string("exception"))
        }
    }

    @Test("RFC 2231 Content-Disposition for non-ASCII names")
    func disposition() async throws {
        try await withServer { _, client in
            let doc = try await client.createFile(name: "résumé final.txt", content: Data("x".utf8))
            let response = try await client.send("GET", "/api/v1/id/\(doc["uid"]?.stringValue ?? "")/@blob/file:content")
            #expect(response.header("Content-Disposition") == "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9%20final.txt")
        }
    }

    @Test("dropBlobConnection truncates the body and closes the connection (one-shot)")
    func dropConnection() async throws {
        try await withServer { server, client in
            let (uid, _) = try await makeFile(client)
            let path = "/api/v1/id/\(uid)/@blob/file:content"
            server.faults.dropBlobConnection(afterBytes: 1000)
            await #expect(throws: (any Error).self) {
                _ = try await client.send("GET", path)
            }
            let next = try await client.send("GET", path)
            #expect(next.status == 200 && next.body == Self.content)
        }
    }

    @Test("redirectBlobs: 302 to another origin, the s3 endpoint serves without auth and records credentials")
    func redirect() async throws {
        try await withServer { server, client in
            let (uid, _) = try await makeFile(client)
            server.faults.redirectBlobs(to: "localhost")
            let response = try await client.send("GET", "/api/v1/id/\(uid)/@blob/file:content")
            #expect(response.status == 302)
            let location = try #require(response.header("Location"))
            #expect(location.hasPrefix("http://localhost:\(server.port)/nuxeo/s3/\(uid)?sig="))
            server.resetRequests()
            let direct = try await client.send("GET", location, headers: [("Range", "bytes=0-9")], auth: .none)
            #expect(direct.status == 206 && direct.body == Self.content.prefix(10))
            #expect(server.requests().last?.carriedCredentials == false)
            _ = try await client.send("GET", location)
            #expect(server.requests().last?.carriedCredentials == true)
            server.faults.redirectBlobs(to: nil)
            #expect(try await client.send("GET", "/api/v1/id/\(uid)/@blob/file:content").status == 200)
        }
    }
}

import Foundation
import Testing
@testable import NuxeoTestServer

@Suite("Batch upload")
struct BatchUploadTests {
    func chunk(_ client: TestClient, _ batch: String, _ index: Int, of count: Int, _ data: Data, total: Int) async throws -> TestResponse {
        try await client.send("POST", "/api/v1/upload/\(batch)/0", headers: [
            ("X-File-Name", "Fichier%20accentu%C3%A9+x.txt"), ("X-File-Type", "text/plain"), ("X-File-Size", String(total)),
            ("X-Upload-Type", "chunked"), ("X-Upload-Chunk-Index", String(index)), ("X-Upload-Chunk-Count", String(count)),
            ("Content-Type", "application/octet-stream"),
        ], body: data)
    }

    @Test("normal upload answers strings; batch info; unknown batch is an empty 404; bad index 400")
    func normal() async throws {
        try await withServer { _, client in
            let create = try await client.send("POST", "/api/v1/upload/")
            #expect(create.status == 201)
            let batch = try #require(try create.json()["batchId"]?.stringValue)
            #expect(batch.hasPrefix("batchId-"))
            #expect(try await client.send("GET", "/api/v1/upload/\(batch)").status == 204)
            let up = try await client.send("POST", "/api/v1/upload/\(batch)/0", headers: [
                ("X-File-Name", "a%20b+c.txt"), ("X-File-Type", "text/plain"), ("X-File-Size", "3"),
            ], body: Data("abc".utf8))
            #expect(up.status == 201)
            let json = try up.json()
            #expect(json == .object([("uploaded", .string("true")), ("batchId", .string(batch)), ("fileIdx", .string("0")),
                                     ("uploadType", .string("normal")), ("uploadedSize", .string("3"))]))
            let info = try await client.send("GET", "/api/v1/upload/\(batch)")
            #expect(info.status == 200)
            #expect(try info.json()[0]?["name"] == .string("a b c.txt"))
            #expect(try info.json()[0]?["size"] == .int(3))
            let unknown = try await client.send("POST", "/api/v1/upload/batchId-nope/0", body: Data("x".utf8))
            #expect(unknown.status == 404 && unknown.body.isEmpty)
            let bad = try await client.send("POST", "/api/v1/upload/\(batch)/zero", body: Data("x".utf8))
            #expect(bad.status == 400)
            #expect(bad.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(try await client.send("DELETE", "/api/v1/upload/\(batch)").status == 204)
            #expect(try await client.send("DELETE", "/api/v1/upload/\(batch)").status == 404)
            #expect(try await client.send("GET", "/api/v1/upload/\(batch)").status == 404)
        }
    }

    @Test("chunked upload out of order: 202 until complete, resume GET, then 201")
    func chunked() async throws {
        try await withServer { _, client in
            let batch = try await client.send("POST", "/api/v1/upload/").json()["batchId"]?.stringValue ?? ""
            let parts = [Data("aaaa".utf8), Data("bbbb".utf8), Data("cc".utf8)]
            let r2 = try await chunk(client, batch, 2, of: 3, parts[2], total: 10)
            #expect(r2.status == 202)
            let r0 = try await chunk(client, batch, 0, of: 3, parts[0], total: 10)
            #expect(r0.status == 202)
            let body = try r0.json()
            #expect(body["uploadedChunkIds"] == .array([.int(0), .int(2)]))
            #expect(body["chunkCount"] == .int(3))
            #expect(body["uploadedSize"] == .string("4"))
            #expect(body["uploadType"] == .string("chunked"))
            let resume = try await client.send("GET", "/api/v1/upload/\(batch)/0")
            #expect(resume.status == 202)
            let state = try resume.json()
            #expect(state["name"] == .string("Fichier accentué x.txt"))
            #expect(state["size"] == .int(10))
            #expect(state["uploadedChunkIds"] == .array([.int(0), .int(2)]))
            let r1 = try await chunk(client, batch, 1, of: 3, parts[1], total: 10)
            #expect(r1.status == 201)
            #expect(try await client.send("GET", "/api/v1/upload/\(batch)/0").status == 200)
            #expect(try await client.send("GET", "/api/v1/upload/\(batch)/7").status == 404)
            let doc = try await client.create("File", name: "c", extra: ",\"file:content\":{\"upload-batch\":\"\(batch)\",\"upload-fileId\":\"0\"}")
            let blob = try await client.send("GET", "/api/v1/id/\(doc["uid"]?.stringValue ?? "")/@blob/file:content")
            #expect(blob.text == "aaaabbbbcc")
        }
    }

    @Test("a used batch is dropped unless X-Batch-No-Drop: true; a dropped batch attaches null")
    func dropRule() async throws {
        try await withServer { _, client in
            let batch = try await client.upload(Data("one".utf8), name: "one.txt")
            let ref = ",\"file:content\":{\"upload-batch\":\"\(batch)\",\"upload-fileId\":\"0\"}"
            let kept = try await client.create("File", name: "a", extra: ref, headers: [("properties", "*"), ("X-Batch-No-Drop", "true")])
            #expect(kept["properties"]?["file:content"]?["name"] == .string("one.txt"))
            #expect(try await client.send("GET", "/api/v1/upload/\(batch)").status == 200)
            let used = try await client.create("File", name: "b", extra: ref)
            #expect(used["properties"]?["file:content"]?["length"] == .string("3"))
            #expect(try await client.send("GET", "/api/v1/upload/\(batch)").status == 404)
            let late = try await client.create("File", name: "c", extra: ref)
            #expect(late["properties"]?["file:content"] == .null)
        }
    }

    @Test("FileManager.Import and Blob.AttachOnDocument through the batch execute endpoint")
    func execute() async throws {
        try await withServer { _, client in
            let batch = try await client.upload(Data("v1".utf8), name: "imp.txt")
            let imported = try await client.sendJSON("POST", "/api/v1/upload/\(batch)/0/execute/FileManager.Import",
                "{\"params\":{\"overwite\":false},\"context\":{\"currentDocument\":\"/default-domain/workspaces/strata\"}}",
                headers: [("properties", "*")])
            #expect(imported.status == 200)
            let doc = try imported.json()
            #expect(doc["type"] == .string("File"))
            #expect(doc["title"] == .string("imp.txt"))
            let again = try await client.upload(Data("v2!".utf8), name: "imp.txt")
            let overwritten = try await client.sendJSON("POST", "/api/v1/upload/\(again)/0/execute/FileManager.Import",
                "{\"params\":{\"overwite\":true},\"context\":{\"currentDocument\":\"/default-domain/workspaces/strata\"}}",
                headers: [("properties", "*")]).json()
            #expect(overwritten["uid"] == doc["uid"])
            #expect(overwritten["properties"]?["file:content"]?["length"] == .string("3"))
            let third = try await client.upload(Data("attached".utf8), name: "att.bin", mime: "application/octet-stream")
            let uid = doc["uid"]?.stringValue ?? ""
            let attach = try await client.sendJSON("POST", "/api/v1/upload/\(third)/0/execute/Blob.AttachOnDocument",
                "{\"params\":{\"document\":\"\(uid)\",\"xpath\":\"file:content\",\"save\":\"true\"}}",
                headers: [("X-NXVoidOperation", "true")])
            #expect(attach.status == 204)
            #expect(try await client.send("GET", "/api/v1/id/\(uid)/@blob/file:content").text == "attached")
        }
    }
}

import Foundation
import Testing
@testable import NuxeoTestServer

@Suite("Fault hooks")
struct FaultTests {
    @Test("failNext: status, Retry-After, count, matching")
    func failNext() async throws {
        try await withServer { server, client in
            server.faults.failNext(status: 503, retryAfter: 2, count: 2) { method, path in
                method == "GET" && path.hasSuffix("/@children")
            }
            #expect(try await client.send("GET", "/api/v1/me").status == 200, "not matching")
            let first = try await client.send("GET", workspace + "/@children")
            #expect(first.status == 503)
            #expect(first.header("Retry-After") == "2")
            #expect(try first.json()["status"] == .int(503))
            #expect(try await client.send("GET", workspace + "/@children").status == 503)
            #expect(try await client.send("GET", workspace + "/@children").status == 200)
            server.faults.failNext(status: 500, retryAfter: nil)
            let once = try await client.send("GET", "/api/v1/me")
            #expect(once.status == 500 && once.header("Retry-After") == nil)
            #expect(try await client.send("GET", "/api/v1/me").status == 200)
        }
    }

    @Test("loseChunk: acknowledged but forgotten until re-sent")
    func loseChunk() async throws {
        try await withServer { server, client in
            let batch = try await client.send("POST", "/api/v1/upload/").json()["batchId"]?.stringValue ?? ""
            func send(_ index: Int) async throws -> TestResponse {
                try await client.send("POST", "/api/v1/upload/\(batch)/0", headers: [
                    ("X-File-Name", "f.txt"), ("X-File-Size", "4"), ("X-Upload-Type", "chunked"),
                    ("X-Upload-Chunk-Index", String(index)), ("X-Upload-Chunk-Count", "2"),
                ], body: Data(index == 0 ? "ab".utf8 : "cd".utf8))
            }
            server.faults.loseChunk(index: 1)
            #expect(try await send(0).status == 202)
            let lost = try await send(1)
            #expect(lost.status == 202)
            #expect(try lost.json()["uploadedChunkIds"] == .array([.int(0), .int(1)]))
            let state = try await client.send("GET", "/api/v1/upload/\(batch)/0")
            #expect(state.status == 202)
            #expect(try state.json()["uploadedChunkIds"] == .array([.int(0)]))
            #expect(try await send(1).status == 201)
            #expect(try await client.send("GET", "/api/v1/upload/\(batch)/0").status == 200)
        }
    }
}

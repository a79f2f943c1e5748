import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
@testable import PydioTestServer

@Suite("Fault hooks")
struct FaultTests {
    @Test("failNext: status, Retry-After, count, matching by action; reset clears")
    func failNext() async throws {
        try await withServer { server, client in
            try await client.login()
            server.faults.failNext(status: 503, retryAfter: 2, count: 2) { $0 == "ls" }
            #expect(try await client.action("stat", [("file", "/")]).status == 200, "not matching")
            let first = try await client.action("ls", [("dir", "/")])
            #expect(first.status == 503 && first.header("Retry-After") == "2" && first.body.isEmpty)
            #expect(try await client.action("ls", [("dir", "/")]).status == 503)
            #expect(try await client.action("ls", [("dir", "/")]).status == 200)
            server.faults.failNext(status: 500)
            let once = try await client.action("ls", [("dir", "/")])
            #expect(once.status == 500 && once.header("Retry-After") == nil)
            server.faults.failNext(status: 502, count: 5)
            server.faults.reset()
            #expect(try await client.action("ls", [("dir", "/")]).status == 200)
        }
    }

    @Test("dropDownloadConnection: headers and N bytes, then the connection closes")
    func dropDownload() async throws {
        try await withServer { server, client in
            try await client.login()
            _ = try await client.put("/", "f.bin", Data(repeating: 9, count: 100_000))
            server.faults.dropDownloadConnection(afterBytes: 1000)
            var request = HTTPClientRequest(url: client.base + "index.php?" + PydioClient.encode([
                ("get_action", "download"), ("tmp_repository_id", "1"), ("file", "/f.bin"), ("secure_token", client.token),
            ]))
            request.headers.add(name: "Cookie", value: "AjaXplorer=\(client.cookies["AjaXplorer"] ?? "")")
            let response = try await client.client.execute(request, timeout: .seconds(10))
            #expect(response.headers["Content-Length"].first == "100000")
            var received = 0
            do {
                for try await buffer in response.body { received += buffer.readableBytes }
                Issue.record("the body should not complete")
            } catch {
                #expect(received == 1000)
            }
            let again = try await client.action("download", [("file", "/f.bin")])
            #expect(again.body.count == 100_000, "one-shot")
        }
    }
}

import Foundation
import Testing
@testable import PydioTestServer

@Suite("Basic flow")
struct BasicFlowTests {
    @Test("login, mkdir, upload, ls, download")
    func roundTrip() async throws {
        try await withServer { server, client in
            let login = try await client.login()
            #expect(login.text.contains("<logging_result value=\"1\" secure_token=\""))
            #expect(client.token.count == 32)
            let mkdir = try await client.postAction("mkdir", [("dir", "/"), ("dirname", "docs")])
            #expect(mkdir.text.contains("<message type=\"SUCCESS\">The directory docs has been created in /</message>"))
            let upload = try await client.put("/docs", "a.txt", Data("abc".utf8))
            #expect(upload.text.contains("filename=\"/docs/a.txt\""))
            let listing = try await client.action("ls", [("dir", "/docs"), ("options", "al")])
            #expect(listing.text.contains("text=\"a.txt\" filename=\"/docs/a.txt\""))
            let download = try await client.action("download", [("file", "/docs/a.txt")])
            #expect(download.status == 200)
            #expect(download.text == "abc")
            #expect(server.fileCount(workspace: "my-files") == 1)
        }
    }
}

import Foundation
import Testing
@testable import PydioTestServer

@Suite("Public links")
struct ShareTests {
    func share(_ client: PydioClient, _ extra: [(String, String)] = []) async throws -> String {
        try await client.postAction("share", [("file", "/s.txt"), ("sub_action", "create_minisite")] + extra).text
    }

    @Test("create, read, download publicly, unshare, then 404")
    func roundTrip() async throws {
        try await withServer { server, client in
            try await client.login()
            _ = try await client.put("/", "s.txt", Data("shared bytes".utf8))
            #expect(try await client.postAction("load_shared_element_data", [("file", "/s.txt")]).text
                .contains("<message type=\"ERROR\">Cannot find share for node /s.txt</message>"))
            let url = try await share(client)
            #expect(url.range(of: #"^http://127\.0\.0\.1:\d+/public/[0-9a-f]{6}$"#, options: .regularExpression) != nil)
            let hash = String(url.split(separator: "/").last ?? "")
            let data = try await client.postAction("load_shared_element_data", [("file", "/s.txt"), ("element_type", "file")])
            #expect(data.header("Content-Type") == "application/json")
            #expect(data.text.contains("\"links\":{\"\(hash)\":{\"public\":\"true\""))
            #expect(data.text.contains("\"public_link\":\"\(url)\""))
            let anonymous = PydioClient(server: server)
            let download = try await anonymous.send("GET", url + "/dl/s.txt")
            #expect(download.status == 200 && download.text == "shared bytes")
            #expect(download.header("Content-Disposition") == "attachment; filename=\"s.txt\"")
            #expect(try await anonymous.send("GET", client.root + "/public/000000/dl/s.txt").status == 404)
            let unshare = try await client.postAction("unshare", [("file", "/s.txt"), ("element_id", hash)])
            #expect(unshare.text.contains("Successfully unshared element"))
            #expect(try await anonymous.send("GET", url + "/dl/s.txt").status == 404)
            await anonymous.shutdown()
        }
    }

    @Test("a numeric hash is a JSON number; password and download limit are enforced")
    func options() async throws {
        try await withServer { server, client in
            try await client.login()
            _ = try await client.put("/", "s.txt", Data("x".utf8))
            _ = try await share(client, [("custom_handle", "471622")])
            #expect(try await client.postAction("load_shared_element_data", [("file", "/s.txt")]).text.contains("\"hash\":471622,"))
            let locked = try await share(client, [("guest_user_pass", "pw"), ("downloadlimit", "1"), ("expiration", "3")])
            let anonymous = PydioClient(server: server)
            #expect(try await anonymous.send("GET", locked + "/dl/s.txt").status == 401)
            #expect(try await anonymous.send("GET", locked + "/dl/s.txt?password=pw").status == 200)
            #expect(try await anonymous.send("GET", locked + "/dl/s.txt?password=pw").status == 404, "limit reached")
            let all = try await client.postAction("load_shared_element_data", [("file", "/s.txt")]).text
            #expect(all.contains("\"users_number\":2") && all.contains("\"expire_after\":3") && all.contains("\"has_password\":true"))
            #expect(try await client.postAction("unshare", [("file", "/s.txt")]).text.contains("Successfully"))
            #expect(try await client.postAction("load_shared_element_data", [("file", "/s.txt")]).text.contains("Cannot find share"))
            await anonymous.shutdown()
        }
    }
}

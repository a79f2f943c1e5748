import Foundation
import Testing
@testable import NextcloudTestServer

@Suite("Public links")
struct PublicLinkTests {
    let v2 = "/ocs/v2.php/apps/files_sharing/api/v1/shares?format=json"

    static func token(_ response: TestResponse) throws -> String {
        try #require(OCSValue.parse(json: response.body)?["ocs"]?["data"]?["token"]?.text)
    }

    @Test("a file link downloads; with a password only with token:password; deleted links are 404")
    func download() async throws {
        try await withServer { server, client in
            server.seedFile(user: "alice", path: "a.txt", contents: Data("public".utf8))
            let open = try Self.token(try await client.ocs("POST", v2, form: [("path", "/a.txt"), ("shareType", "3")]))
            let anonymous = client.with(authorization: nil)
            let fetched = try await anonymous.send("GET", "/s/\(open)/download")
            #expect(fetched.status == 200)
            #expect(fetched.text == "public")
            let locked = try Self.token(try await client.ocs("POST", v2, form: [("path", "/a.txt"), ("shareType", "3"), ("password", "pw 1")]))
            #expect(try await anonymous.send("GET", "/s/\(locked)/download").status == 401)
            let wrong = try await anonymous.with(authorization: DAVClient.basic(locked, "nope")).send("GET", "/s/\(locked)/download")
            #expect(wrong.status == 401)
            let right = try await anonymous.with(authorization: DAVClient.basic(locked, "pw 1")).send("GET", "/public.php/webdav/")
            #expect(right.status == 200)
            #expect(right.text == "public")
            #expect(try await anonymous.send("GET", "/s/unknowntoken123/download").status == 404)
        }
    }

    @Test("a folder link lists through public.php/webdav and takes uploads when it allows creating")
    func folder() async throws {
        try await withServer { server, client in
            server.seedFile(user: "alice", path: "Drop/inside.txt", contents: Data("i".utf8))
            let read = try Self.token(try await client.ocs("POST", v2, form: [("path", "/Drop"), ("shareType", "3")]))
            let reader = client.with(authorization: DAVClient.basic(read, ""))
            let listing = try await reader.send("PROPFIND", "/public.php/webdav/", headers: [("Depth", "1")], text: RequestBodies.propfind(["d:getcontentlength"]))
            #expect(listing.status == 207)
            #expect(listing.text.contains("<d:href>/public.php/webdav/inside.txt</d:href>"))
            #expect(!listing.text.contains("Drop"))
            #expect(try await reader.send("PUT", "/public.php/webdav/new.txt", text: "n").status == 403)
            let upload = try Self.token(try await client.ocs("POST", v2, form: [("path", "/Drop"), ("shareType", "3"), ("publicUpload", "true")]))
            let uploader = client.with(authorization: DAVClient.basic(upload, ""))
            #expect(try await uploader.send("PUT", "/public.php/webdav/new.txt", text: "n").status == 201)
            #expect(server.contents(user: "alice", path: "Drop/new.txt") == Data("n".utf8))
        }
    }
}

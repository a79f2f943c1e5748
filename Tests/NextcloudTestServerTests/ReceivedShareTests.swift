import Foundation
import Testing
@testable import NextcloudTestServer

@Suite("Received shares")
struct ReceivedShareTests {
    let shares = "/ocs/v2.php/apps/files_sharing/api/v1/shares?format=json"

    @Test("a user share is mounted at the recipient's root with the share's permissions")
    func mounted() async throws {
        let configuration = NextcloudTestServer.Configuration(users: ["alice": "secret", "bob": "b"])
        try await withServer(configuration) { server, client in
            server.seedFile(user: "alice", path: "Project/plan.txt", contents: Data("plan".utf8))
            server.seedFile(user: "bob", path: "mine.txt", contents: Data("m".utf8))
            _ = try await client.ocs("POST", shares, form: [("path", "/Project"), ("shareType", "0"), ("shareWith", "bob"), ("permissions", "5")])
            let bob = client.with(authorization: DAVClient.basic("bob", "b"))
            let root = try await bob.send("PROPFIND", "/remote.php/dav/files/bob/", headers: [("Depth", "1")], text: RequestBodies.propfind(["oc:permissions", "nc:mount-type", "oc:owner-id"]))
            #expect(root.text.contains("<d:href>/remote.php/dav/files/bob/Project/</d:href><d:propstat><d:prop><oc:permissions>SGDNVCK</oc:permissions><nc:mount-type>shared</nc:mount-type><oc:owner-id>alice</oc:owner-id>"))
            #expect(root.text.contains("<d:href>/remote.php/dav/files/bob/mine.txt</d:href>"))
            let read = try await bob.send("GET", "/remote.php/dav/files/bob/Project/plan.txt")
            #expect(read.text == "plan")
            let create = try await bob.send("PUT", "/remote.php/dav/files/bob/Project/new.txt", text: "n")
            #expect(create.status == 201)
            #expect(server.contents(user: "alice", path: "Project/new.txt") == Data("n".utf8))
            let change = try await bob.send("PUT", "/remote.php/dav/files/bob/Project/plan.txt", text: "changed")
            #expect(change.status == 403, "permission 5 grants read and create, not update")
            let remove = try await bob.send("DELETE", "/remote.php/dav/files/bob/Project/plan.txt")
            #expect(remove.status == 403)
            let leave = try await bob.send("DELETE", "/remote.php/dav/files/bob/Project")
            #expect(leave.status == 204)
            #expect(server.fileID(user: "alice", path: "Project/plan.txt") != nil, "unsharing leaves the owner's files")
            let gone = try await bob.send("PROPFIND", "/remote.php/dav/files/bob/Project", headers: [("Depth", "0")])
            #expect(gone.status == 404)
        }
    }
}

import Foundation
import Testing
@testable import NuxeoTestServer

/// Blob changes in the Drive feed: import, attach, overwrite and `touch(path:)`.
@Suite("Drive change feed: blobs")
struct DriveBlobChangeTests {
    @Test("FileManager.Import creates, overwrite/attach/touch modify; a File without blob is not listed until it has one")
    func blobChanges() async throws {
        try await withServer { server, client in
            let root = try await client.create("Folder", name: "r", title: "r")
            try await client.setSynchronization(root.uid, enable: true)
            let start = try await client.upperBound()
            let importBody = "{\"params\":{\"overwite\":%@},\"context\":{\"currentDocument\":\"/default-domain/workspaces/strata/r\"}}"
            let first = try await client.upload(Data("v1".utf8), name: "imp.txt")
            let imported = try await client.sendJSON("POST", "/api/v1/upload/\(first)/0/execute/FileManager.Import",
                                                     String(format: importBody, "false")).json()
            let second = try await client.upload(Data("v2".utf8), name: "imp.txt")
            _ = try await client.sendJSON("POST", "/api/v1/upload/\(second)/0/execute/FileManager.Import",
                                          String(format: importBody, "true"))
            let empty = try await client.create("File", name: "empty", title: "empty", under: "/api/v1/id/\(root.uid)")
            let third = try await client.upload(Data("v3".utf8), name: "e.txt")
            let attach = try await client.sendJSON("POST", "/api/v1/upload/\(third)/0/execute/Blob.AttachOnDocument",
                                                   "{\"params\":{\"document\":\"\(empty.uid)\",\"xpath\":\"file:content\"}}",
                                                   headers: [("X-NXVoidOperation", "true")])
            #expect(attach.status == 204)
            server.touch(path: "/default-domain/workspaces/strata/r/imp.txt")

            let summary = try await client.changeSummary(lowerBound: start)
            #expect(try await client.upperBound() == start + 5, "the blob-less creation is logged")
            #expect(summary.eventIDs == ["documentCreated", "documentModified", "documentModified", "documentModified"])
            let changes = summary.changes
            #expect(changes.map { $0["docUuid"]?.stringValue ?? "" } == [imported.uid, imported.uid, empty.uid, imported.uid])
            #expect(changes[0]["fileSystemItem"]?["digest"] == .string(MD5.hex(Data("v1".utf8))))
            #expect(changes[1]["fileSystemItem"]?["digest"] == .string(MD5.hex(Data("v2".utf8))))
            #expect(changes[2]["fileSystemItem"]?["downloadURL"] == .string("nxfile/default/\(empty.uid)/blobholder:0/e.txt"))
            #expect(changes[3]["fileSystemItem"]?["lastContributor"] == .string("someone-else"))
        }
    }
}

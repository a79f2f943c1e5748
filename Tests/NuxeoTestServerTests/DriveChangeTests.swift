import Foundation
import Testing
@testable import NuxeoTestServer

/// `NuxeoDrive.SetSynchronization` and `NuxeoDrive.GetChangeSummary` behaviour (spec §9.1).
@Suite("Drive change feed")
struct DriveChangeTests {
    func op(_ client: TestClient, _ name: String, _ body: String) async throws -> TestResponse {
        try await client.sendJSON("POST", "/api/v1/automation/\(name)", body)
    }

    @Test("without lowerBound (or -1): no changes, only the current upperBound")
    func initialise() async throws {
        try await withServer { _, client in
            let root = try await client.create("Folder", name: "root", title: "root")
            try await client.setSynchronization(root.uid, enable: true)
            try await client.create("Folder", name: "child", under: "/api/v1/id/\(root.uid)")
            let summary = try await client.changeSummary(lowerBound: nil)
            #expect(summary.changes.isEmpty)
            #expect(summary["hasTooManyChanges"] == .bool(false))
            let upper = try #require(summary["upperBound"]?.intValue)
            #expect(upper > 0)
            #expect(try await client.changeSummary(lowerBound: -1).changes.isEmpty)
            #expect(try await client.changeSummary(lowerBound: upper).changes.isEmpty)
            try await client.create("Folder", name: "next", under: "/api/v1/id/\(root.uid)")
            let after = try await client.changeSummary(lowerBound: upper)
            #expect(after.eventIDs == ["documentCreated"])
            #expect(after["upperBound"]?.intValue == upper + 1)
            // The root is at or below itself: its own creation (logged before it became a root) is listed too.
            #expect(try await client.changeSummary(lowerBound: 0).eventIDs
                    == ["documentCreated", "rootRegistered", "documentCreated", "documentCreated"])
        }
    }

    @Test("create, modify, move, rename, trash, untrash, copy, delete, permissions under a root")
    func lifecycle() async throws {
        try await withServer { _, client in
            let root = try await client.create("Folder", name: "sync", title: "sync")
            #expect(try await client.setSynchronization("/default-domain/workspaces/strata/sync", enable: true).status == 204)
            let start = try await client.upperBound()
            let sub = try await client.create("Folder", name: "sub", title: "sub", under: "/api/v1/id/\(root.uid)")
            let file = try await client.createFile(name: "f.txt", content: Data("1".utf8), under: "/api/v1/id/\(sub.uid)")
            let put = try await client.sendJSON("PUT", "/api/v1/id/\(file.uid)", "{\"entity-type\":\"document\",\"properties\":{\"dc:description\":\"d\"}}")
            #expect(put.status == 200)
            let moved = try await op(client, "Document.Move", "{\"input\":\"\(file.uid)\",\"params\":{\"target\":\"\(root.uid)\"}}")
            #expect(moved.status == 200)
            _ = try await op(client, "Document.Move", "{\"input\":\"\(file.uid)\",\"params\":{\"target\":\"\(root.uid)\",\"name\":\"g.txt\"}}")
            _ = try await op(client, "Document.Trash", "{\"input\":\"\(file.uid)\"}")
            _ = try await op(client, "Document.Untrash", "{\"input\":\"\(file.uid)\"}")
            let copy = try await op(client, "Document.Copy", "{\"input\":\"\(sub.uid)\",\"params\":{\"target\":\"\(root.uid)\",\"name\":\"sub2\"}}").json()
            #expect(try await op(client, "Document.Delete", "{\"input\":\"\(copy.uid)\"}").status == 204)
            #expect(try await client.send("DELETE", "/api/v1/id/\(file.uid)").status == 204)
            _ = try await op(client, "Document.AddPermission", "{\"input\":\"\(sub.uid)\",\"params\":{\"username\":\"members\",\"permission\":\"ReadWrite\"}}")

            let summary = try await client.changeSummary(lowerBound: start)
            #expect(summary.eventIDs == [
                "documentCreated", "documentCreated", "documentModified", "documentMoved", "documentMoved",
                "deleted", "documentUntrashed", "documentCreatedByCopy", "deleted", "deleted", "securityUpdated",
            ])
            let changes = summary.changes
            let docs = [sub.uid, file.uid, file.uid, file.uid, file.uid, file.uid, file.uid, copy.uid, copy.uid, file.uid, sub.uid]
            #expect(changes.map { $0["docUuid"]?.stringValue ?? "" } == docs)
            for change in changes {
                let deletion = change["eventId"] == .string("deleted")
                #expect(change["fileSystemItem"]?.isNull == deletion, "\(change.serialized)")
                #expect(change["repositoryId"] == .string("default"))
                #expect(change["eventDate"]?.typeName == "number")
                let uid = change["docUuid"]?.stringValue ?? ""
                #expect(change["fileSystemItemId"] == .string("defaultFileSystemItemFactory#default#\(uid)"))
            }
            let ids = try #require(summary["upperBound"]?.intValue)
            #expect(ids == start + changes.count, "every operation logged exactly one entry")

            let rootID = "defaultSyncRootFolderItemFactory#default#\(root.uid)"
            let subID = "defaultFileSystemItemFactory#default#\(sub.uid)"
            let fileID = "defaultFileSystemItemFactory#default#\(file.uid)"
            let created = try #require(changes[1]["fileSystemItem"])
            #expect(created["parentId"] == .string(subID))
            #expect(created["path"] == .string("/\(FileSystemItemWriter.topLevelID)/\(rootID)/\(subID)/\(fileID)"))
            let movedItem = try #require(changes[3]["fileSystemItem"])
            #expect(movedItem["parentId"] == .string(rootID))
            #expect(movedItem["path"] == .string("/\(FileSystemItemWriter.topLevelID)/\(rootID)/\(fileID)"))
            #expect(changes[2]["fileSystemItem"]?["lastModificationDate"] != created["lastModificationDate"])
            #expect(changes[5]["fileSystemItemName"] == .string("f.txt"))
            #expect(changes[7]["fileSystemItem"]?["folder"] == .bool(true))
            #expect(changes[7]["fileSystemItemName"] == .string("sub"))
        }
    }

    @Test("changes outside every root are not listed; moving out of a root is a deletion, moving in a move")
    func outsideRoots() async throws {
        try await withServer { _, client in
            let root = try await client.create("Folder", name: "in", title: "in")
            let outside = try await client.create("Folder", name: "out", title: "out")
            try await client.setSynchronization(root.uid, enable: true)
            let start = try await client.upperBound()
            let stray = try await client.createFile(name: "x.txt", content: Data("x".utf8), under: "/api/v1/id/\(outside.uid)")
            _ = try await client.sendJSON("PUT", "/api/v1/id/\(stray.uid)", "{\"entity-type\":\"document\",\"properties\":{}}")
            _ = try await client.sendJSON("PUT", "/api/v1/id/\(outside.uid)", "{\"entity-type\":\"document\",\"properties\":{}}")
            #expect(try await client.changeSummary(lowerBound: start).changes.isEmpty)
            #expect(try await client.upperBound() == start + 3, "they are still logged")

            _ = try await op(client, "Document.Move", "{\"input\":\"\(stray.uid)\",\"params\":{\"target\":\"\(root.uid)\"}}")
            _ = try await op(client, "Document.Move", "{\"input\":\"\(stray.uid)\",\"params\":{\"target\":\"\(outside.uid)\"}}")
            _ = try await op(client, "Document.Trash", "{\"input\":\"\(stray.uid)\"}")
            let summary = try await client.changeSummary(lowerBound: start)
            #expect(summary.eventIDs == ["documentMoved", "deleted"])
            #expect(summary.changes.last?["fileSystemItem"] == .null)
            #expect(summary.changes.last?["fileSystemItemId"] == .string("defaultFileSystemItemFactory#default#\(stray.uid)"))
        }
    }

    @Test("more changes than driveChangeLimit: hasTooManyChanges and an empty list")
    func tooManyChanges() async throws {
        try await withServer({ $0.driveChangeLimit = 2 }) { _, client in
            let root = try await client.create("Folder", name: "r", title: "r")
            try await client.setSynchronization(root.uid, enable: true)
            let start = try await client.upperBound()
            for index in 0..<3 {
                try await client.create("Folder", name: "f\(index)", under: "/api/v1/id/\(root.uid)")
            }
            let many = try await client.changeSummary(lowerBound: start)
            #expect(many["hasTooManyChanges"] == .bool(true))
            #expect(many.changes.isEmpty)
            #expect(many["upperBound"]?.intValue == start + 3)
            let few = try await client.changeSummary(lowerBound: start + 1)
            #expect(few["hasTooManyChanges"] == .bool(false))
            #expect(few.eventIDs == ["documentCreated", "documentCreated"])
        }
    }

    @Test("roots are per user; unregistering reports rootUnregistered and stops the feed")
    func unregister() async throws {
        try await withServer({ $0.users["bob"] = "pw" }) { _, client in
            let bob = TestAuth.basic("bob", "pw")
            let a = try await client.create("Folder", name: "a", title: "a")
            let b = try await client.create("Folder", name: "b", title: "b")
            try await client.setSynchronization(a.uid, enable: true)
            try await client.setSynchronization(b.uid, enable: true)
            #expect(try await client.setSynchronization(b.uid, enable: true).status == 204, "registering twice is a no-op")
            let summary = try await client.changeSummary(lowerBound: 0)
            #expect(summary["activeSynchronizationRootDefinitions"] == .string("default:\(a.uid),default:\(b.uid)"))
            #expect(summary.eventIDs == ["documentCreated", "documentCreated", "rootRegistered", "rootRegistered"])
            let registered = try #require(summary.changes[2]["fileSystemItem"])
            #expect(registered["id"] == .string("defaultSyncRootFolderItemFactory#default#\(a.uid)"))
            #expect(registered["parentId"] == .string(FileSystemItemWriter.topLevelID))

            let bobs = try await client.changeSummary(lowerBound: 0, auth: bob)
            #expect(bobs.changes.isEmpty, "another user's roots and root events are not bob's")
            #expect(bobs["activeSynchronizationRootDefinitions"] == .string(""))

            let start = try await client.upperBound()
            #expect(try await client.setSynchronization(a.uid, enable: false).status == 204)
            try await client.create("Folder", name: "late", under: "/api/v1/id/\(a.uid)")
            try await client.create("Folder", name: "kept", under: "/api/v1/id/\(b.uid)")
            let after = try await client.changeSummary(lowerBound: start)
            #expect(after.eventIDs == ["rootUnregistered", "documentCreated"])
            let unregistered = try #require(after.changes.first)
            #expect(unregistered["fileSystemItem"] == .null)
            #expect(unregistered["fileSystemItemId"] == .string("defaultSyncRootFolderItemFactory#default#\(a.uid)"))
            #expect(after["activeSynchronizationRootDefinitions"] == .string("default:\(b.uid)"))

            _ = try await op(client, "Document.Trash", "{\"input\":\"\(b.uid)\"}")
            let trashed = try await client.changeSummary(lowerBound: start)
            #expect(trashed.eventIDs.last == "deleted")
            #expect(trashed.changes.last?["fileSystemItemId"] == .string("defaultSyncRootFolderItemFactory#default#\(b.uid)"))
            #expect(trashed["activeSynchronizationRootDefinitions"] == .string(""), "a trashed root is not active")
        }
    }

    @Test("SetSynchronization needs a folderish input and the enable parameter")
    func setSynchronizationErrors() async throws {
        try await withServer { _, client in
            let file = try await client.createFile(name: "f.txt", content: Data("f".utf8))
            #expect(try await client.setSynchronization(file.uid, enable: true).status == 400)
            #expect(try await op(client, "NuxeoDrive.SetSynchronization", "{\"params\":{\"enable\":true}}").status == 400)
            let folder = try await client.create("Folder", name: "d", title: "d")
            #expect(try await op(client, "NuxeoDrive.SetSynchronization", "{\"input\":\"doc:\(folder.uid)\",\"params\":{}}").status == 400)
            #expect(try await client.setSynchronization("no-such-uid", enable: true).status == 404)
        }
    }
}

import Foundation
import Testing
@testable import NuxeoTestServer

/// `NuxeoDrive.GetChangeSummary` against `nuxeo-drive/change_summary.json`.
@Suite("Drive change summary shape")
struct DriveShapeTests {
    static let fileOnly: Set<String> = ["canUpdate", "downloadURL", "digestAlgorithm", "digest"]
    static let folderOnly: Set<String> = ["canCreateChild", "canScrollDescendants"]

    @Test("summary, change, folder and file fileSystemItem keys and JSON types match the recording")
    func shape() async throws {
        let fixture = try Fixtures.load("nuxeo-drive/change_summary.json")
        let recordedChange = try #require(fixture["fileSystemChanges"]?[0])
        let recordedItem = try #require(recordedChange["fileSystemItem"])
        try await withServer { _, client in
            let root = try await client.create("Folder", name: "ROY", title: "ROY")
            #expect(try await client.setSynchronization(root.uid, enable: true).status == 204)
            let file = try await client.createFile(name: "a b.txt", content: Data("abc".utf8),
                                                   under: "/api/v1/id/\(root.uid)")
            let add = try await client.sendJSON("POST", "/api/v1/automation/Document.AddPermission",
                                                "{\"input\":\"doc:\(root.uid)\",\"params\":{\"username\":\"members\",\"permission\":\"Read\"}}")
            #expect(add.status == 200)

            let response = try await client.changeSummaryResponse(lowerBound: 0, roots: "default:\(root.uid)")
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            let summary = try response.json()
            // "type":"test" is an artifact of Drive's test suite, not a server field.
            Shape.compare(summary, fixture, notWritten: ["type"], context: "summary")
            #expect(summary["activeSynchronizationRootDefinitions"] == .string("default:\(root.uid)"))
            #expect((summary["syncDate"]?.intValue ?? 1) % 1000 == 0, "syncDate is rounded to the second")

            let changes = summary.changes
            #expect(summary.eventIDs == ["documentCreated", "rootRegistered", "documentCreated", "securityUpdated"])
            for change in changes {
                Shape.compare(change, recordedChange, context: "change \(change["eventId"]?.stringValue ?? "")")
            }
            // The recorded change is a securityUpdated on a sync root: same ids and parent as ours.
            let security = try #require(changes.last)
            let rootItem = try #require(security["fileSystemItem"])
            Shape.compare(rootItem, recordedItem, context: "folder fileSystemItem")
            let rootID = "defaultSyncRootFolderItemFactory#default#\(root.uid)"
            #expect(security["fileSystemItemId"] == .string(rootID))
            #expect(security["fileSystemItemName"] == .string("ROY"))
            #expect(rootItem["id"] == .string(rootID))
            #expect(rootItem["parentId"] == recordedItem["parentId"])
            #expect(rootItem["path"] == .string("/org.nuxeo.drive.service.impl.DefaultTopLevelFolderItemFactory#/\(rootID)"))
            #expect(rootItem["userName"] == .string("Administrator"))

            let fileItem = try #require(changes[2]["fileSystemItem"])
            Shape.compare(fileItem, recordedItem, versionExtras: Self.fileOnly, notWritten: Self.folderOnly,
                          context: "file fileSystemItem")
            #expect(Self.fileOnly.allSatisfy { fileItem[$0] != nil })
            #expect(fileItem["canUpdate"]?.typeName == "boolean")
            for key in ["downloadURL", "digestAlgorithm", "digest"] {
                #expect(fileItem[key]?.typeName == "string", "\(key)")
            }
            let fileID = "defaultFileSystemItemFactory#default#\(file.uid)"
            #expect(fileItem["id"] == .string(fileID))
            #expect(fileItem["parentId"] == .string(rootID))
            #expect(fileItem["path"] == .string("/org.nuxeo.drive.service.impl.DefaultTopLevelFolderItemFactory#/\(rootID)/\(fileID)"))
            #expect(fileItem["folder"] == .bool(false))
            #expect(fileItem["name"] == .string("a b.txt"))
            #expect(fileItem["downloadURL"] == .string("nxfile/default/\(file.uid)/blobholder:0/a%20b.txt"))
            #expect(fileItem["digestAlgorithm"] == .string("md5"))
            #expect(fileItem["digest"] == .string(MD5.hex(Data("abc".utf8))))
            #expect(fileItem["lockInfo"] == .null)
        }
    }

    @Test("downloadURL serves the blob below the context path")
    func downloadURL() async throws {
        try await withServer { _, client in
            let root = try await client.create("Folder", name: "r", title: "r")
            try await client.setSynchronization(root.uid, enable: true)
            try await client.createFile(name: "é x.txt", content: Data("hello".utf8), under: "/api/v1/id/\(root.uid)")
            let summary = try await client.changeSummary(lowerBound: 0)
            let url = try #require(summary.changes.last?["fileSystemItem"]?["downloadURL"]?.stringValue)
            let blob = try await client.send("GET", "/" + url)
            #expect(blob.status == 200)
            #expect(blob.text == "hello")
        }
    }
}

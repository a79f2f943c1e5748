import Foundation
import ProviderAPI
import Testing
@testable import NuxeoProvider

extension Parsing {
    @Suite("Nuxeo Drive recording") struct DriveFixtureTests {
        @Test("nuxeo-drive/change_summary.json: bounds, roots and the folder item")
        func changeSummary() throws {
            let summary = try NuxeoDriveChangeSummary.decode(try Fixtures.data("nuxeo-drive/change_summary.json"))
            #expect(summary.syncDate == Fixtures.date(1_681_875_652))
            #expect(summary.upperBound == 7834)
            #expect(summary.hasTooManyChanges)
            #expect(summary.synchronizationRoots.count == 4)
            #expect(summary.synchronizationRoots[1] == .init(repository: "default", uid: "a7e4ce2a-e4a7-432a-b5e1-62b354606929-test"))
            #expect(summary.activeSynchronizationRootDefinitions?.hasPrefix("default:ffed6ec7-b6d3-41a7-ba10-801b7678a584-test,") == true)
            #expect(summary.changes.count == 1)
            let change = summary.changes[0]
            #expect(change.repositoryId == "default")
            #expect(change.eventId == "securityUpdated")
            #expect(change.eventDate == Fixtures.date(1_681_875_648.592))
            #expect(change.docUuid == "a7e4ce2a-e4a7-432a-b5e1-62b354606929")
            #expect(change.fileSystemItemId == "defaultSyncRootFolderItemFactory#default#a7e4ce2a-e4a7-432a-b5e1-62b354606929-test")
            #expect(change.fileSystemItemName == "ROY")
            #expect(change.isRemoval == false)
            let item = try #require(change.fileSystemItem)
            #expect(item.id == change.fileSystemItemId)
            #expect(item.parentId == "org.nuxeo.drive.service.impl.DefaultTopLevelFolderItemFactory#")
            #expect(item.name == "ROY")
            #expect(item.isFolder)
            #expect(item.creator == "Administrator")
            #expect(item.lastContributor == "Administrator")
            #expect(item.creationDate == Fixtures.date(1_681_875_486.061))
            #expect(item.lastModificationDate == Fixtures.date(1_681_875_528.408))
            #expect(item.canRename == true)
            #expect(item.canDelete == true)
            #expect(item.canCreateChild == true)
            #expect(item.canScrollDescendants == true)
            #expect(item.canUpdate == nil)
            #expect(item.lockInfo == nil)
            #expect(item.userName == "Administrator")
            #expect(item.path == "/org.nuxeo.drive.service.impl.DefaultTopLevelFolderItemFactory#/defaultSyncRootFolderItemFactory#default#a7e4ce2a-e4a7-432a-b5e1-62b354606929-test")
            #expect(item.documentUid == "a7e4ce2a-e4a7-432a-b5e1-62b354606929-test")
            #expect(item.digest == nil)
        }

        @Test("a deletion has no file-system item; changes sort newest first")
        func deletionAndOrder() throws {
            let json = """
            {"fileSystemChanges":[
              {"repositoryId":"default","eventId":"documentModified","eventDate":1000,"docUuid":"a",
               "fileSystemItem":{"id":"f#default#a","name":"a.txt","folder":false,"digest":"notInBinaryStore","canUpdate":"true"}},
              {"repositoryId":"default","eventId":"deleted","eventDate":3000,"docUuid":"b","fileSystemItem":null,
               "fileSystemItemId":"f#default#b","fileSystemItemName":"b.txt"}],
             "syncDate":4000,"upperBound":"12","hasTooManyChanges":false}
            """
            let summary = try NuxeoDriveChangeSummary.decode(Data(json.utf8))
            #expect(summary.upperBound == 12)
            #expect(summary.hasTooManyChanges == false)
            #expect(summary.synchronizationRoots.isEmpty)
            #expect(summary.changesNewestFirst.map(\.eventId) == ["deleted", "documentModified"])
            #expect(summary.changes[1].isRemoval)
            #expect(summary.changes[0].fileSystemItem?.canUpdate == true)
            #expect(summary.changes[0].fileSystemItem?.isFolder == false)
        }

        @Test("a change summary of the wrong shape is invalidResponse")
        func wrongShape() {
            for body in ["[]", "{\"fileSystemChanges\": {}}", "{\"fileSystemChanges\": [{\"eventDate\": 1}]}", "{\"upperBound\": []}"] {
                #expect(throws: ProviderError.self) { try NuxeoDriveChangeSummary.decode(Data(body.utf8)) }
            }
        }
    }
}

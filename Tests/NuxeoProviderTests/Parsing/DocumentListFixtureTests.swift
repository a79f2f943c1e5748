import Foundation
import ProviderAPI
import Testing
@testable import NuxeoProvider

extension Parsing {
    @Suite("documents entity recording") struct DocumentListFixtureTests {
        @Test("php-client/document-list.json: paging fields and the five entries")
        func phpDocumentList() throws {
            let entity = try NuxeoEntityRegistry.standard.decode(try Fixtures.data("php-client/document-list.json"))
            let list = try #require(entity.documents)
            #expect(list.isPaginable == true)
            #expect(list.resultsCount == 34)
            #expect(list.knownResultsCount == 34)
            #expect(list.pageSize == 5)
            #expect(list.maxPageSize == 1000)
            #expect(list.currentPageSize == 5)
            #expect(list.currentPageIndex == 0)
            #expect(list.numberOfPages == 7)
            #expect(list.isPreviousPageAvailable == false)
            #expect(list.isNextPageAvailable == false)
            #expect(list.isLastPageAvailable == false)
            #expect(list.isSortable == true)
            #expect(list.hasError == false)
            #expect(list.errorMessage == nil)
            #expect(list.totalSize == 34)
            #expect(list.entries.map(\.uid) == [
                "3dd87292-1345-4ad8-acb5-4e74c26bf893",
                "65a31335-f1fd-42fa-81e2-50a108a0f040",
                "bc7b4e34-b002-4f8f-b98c-e6aafa3be5df",
                "bdfcd2fc-55e3-42c6-88c2-85f598a90fde",
                "10601166-5583-4e0c-9be1-b8d665d44900",
            ])
            #expect(list.entries.map(\.type) == ["Note", "Note", "File", "Workspace", "WorkspaceRoot"])
            #expect(list.entries.map(\.isFolderish) == [true, false, false, true, true])
            // The recording says isNextPageAvailable false on page 0 of 7 (an edited fixture);
            // the full page plus the page count still ask for page 1.
            #expect(list.hasNextPage)
        }

        @Test("php-client/document-list.json: the File entry's blob, with a string length")
        func phpFileEntry() throws {
            let list = try NuxeoEntityRegistry.standard.decode(
                NuxeoDocumentList.self, from: try Fixtures.data("php-client/document-list.json"))
            let file = try #require(list.entries.first { $0.type == "File" })
            #expect(file.title == "MyFile")
            #expect(file.changeToken == "1444812791000")
            #expect(close(file.lastModified, Fixtures.date(1_444_812_791)))
            let blob = try #require(file.blob())
            #expect(blob.name == "document.txt")
            #expect(blob.mimeType == "text/plain")
            #expect(blob.encoding == nil)
            #expect(blob.digestAlgorithmName == "MD5")
            #expect(blob.digest == "b10a8db164e0754105b7a99be72e3fe5")
            #expect(blob.length == 11)
            #expect(blob.data == "http://127.0.0.1:8080/nuxeo/nxfile/default/bc7b4e34-b002-4f8f-b98c-e6aafa3be5df/file:content/document.txt")
            #expect(blob.verifiableDigest?.algorithm == .md5)
            let thumbnail = try #require(file.blob(at: "thumb:thumbnail"))
            #expect(thumbnail.length == 588)
            #expect(thumbnail.mimeType == "image/png")
            #expect(file.properties["common:size"] == .integer(11))
            #expect(file.properties["file:filename"] == .string("document.txt"))
            #expect(file.properties["dc:subjects"]?.stringArrayValue == ["technology/it"])
            // the workspace has "file:content": null
            let workspace = try #require(list.entries.first { $0.type == "Workspace" })
            #expect(workspace.properties["file:content"] == .null)
            #expect(workspace.blob() == nil)
        }
    }
}

import Foundation
import ProviderAPI
import Testing
@testable import NuxeoProvider

extension Parsing {
    @Suite("document entity recordings") struct DocumentFixtureTests {
        @Test("php-client/document.json: every top-level field, properties, facets, acls and permissions")
        func phpDocument() throws {
            let entity = try NuxeoEntityRegistry.standard.decode(try Fixtures.data("php-client/document.json"))
            let document = try #require(entity.document)
            #expect(entity.entityType == "document")
            #expect(document.repository == "default")
            #expect(document.uid == "3dd87292-1345-4ad8-acb5-4e74c26bf893")
            #expect(document.path == "/default-domain/workspaces/MyWorkspace/MyFile")
            #expect(document.type == "Note")
            #expect(document.state == "project")
            #expect(document.parentRef == "512c5555-6dce-4b88-81f1-12ddc8ac5de8")
            #expect(document.isCheckedOut == true)
            #expect(document.isTrashed == false)
            #expect(document.isVersion == false)
            #expect(document.isProxy == false)
            #expect(document.changeToken == "1444731706120")
            #expect(document.title == "myfile.txt")
            // two fraction digits: .12 is 120 ms
            #expect(close(document.lastModified, Fixtures.date(1_444_731_706.12)))
            #expect(document.facets == ["Folderish", "SuperSpace", "NotCollectionMember"])
            #expect(document.isFolderish)
            #expect(document.properties["dc:title"] == .string("myfile.txt"))
            #expect(document.properties["dc:creator"] == .string("system"))
            #expect(document.properties["dc:description"] == .null)
            #expect(document.properties["domain:display_type"] == .bool(false))
            #expect(document.properties["dc:subjects"] == .array([]))
            #expect(document.properties["dc:contributors"]?.stringArrayValue == ["system"])
            #expect(document.property("custom:complex/name") == .string("Guin"))
            #expect(document.property("custom:complex/height")?.doubleValue == 1.456)
            #expect(close(document.property("custom:complex/birthday")?.dateValue, Fixtures.date(283_996_800)))
            #expect(document.properties["custom:related"] == .string("69d953ad-1975-453a-8328-ab9ee1830fe4"))
            #expect(document.properties.count == 25)
            #expect(document.blob() == nil)

            let acls = document.acls
            #expect(acls.count == 1)
            #expect(acls.first?.name == "inherited")
            let aces = try #require(acls.first?.aces)
            #expect(aces.count == 2)
            #expect(aces[0].id == "Administrator:Everything:true:::")
            #expect(aces[0].username == "Administrator")
            #expect(aces[0].permission == "Everything")
            #expect(aces[0].granted)
            #expect(aces[0].externalUser == false)
            #expect(aces[0].status == "effective")
            #expect(aces[0].creator == nil && aces[0].begin == nil && aces[0].end == nil)
            #expect(aces[1].username == "Everyone")
            #expect(aces[1].granted == false)
            #expect(document.permissions == [
                "Read", "Write", "ReadChildren", "AddChildren", "Everything", "RemoveChildren", "ReadWrite",
            ])
        }

        @Test("php-client/documentRoot.json: the root's null state, '/' parentRef, null changeToken, no facets")
        func phpRoot() throws {
            let document = try NuxeoEntityRegistry.standard.decode(
                NuxeoDocument.self, from: try Fixtures.data("php-client/documentRoot.json"))
            #expect(document.uid == "a5491fde-cdca-4001-bc91-093343b887f4")
            #expect(document.path == "/")
            #expect(document.type == "Root")
            #expect(document.state == nil)
            #expect(document.parentRef == "/")
            #expect(document.changeToken == nil)
            #expect(document.title == "a5491fde-cdca-4001-bc91-093343b887f4")
            #expect(document.isTrashed == nil)  // absent on this server
            #expect(document.lastModified == nil)
            #expect(document.facets.isEmpty)
            #expect(document.isFolderish)  // no facets recorded at all: the Root type decides
            #expect(document.properties["dc:title"] == .null)
            #expect(document.properties.count == 21)
            #expect(document.contextParameters.isEmpty)
        }

        @Test("nuxeo-server/test-expected-document1.json: the 10.10 writer's golden output")
        func serverGolden() throws {
            let entity = try NuxeoEntityRegistry.standard.decode(
                try Fixtures.data("nuxeo-server/test-expected-document1.json"))
            let document = try #require(entity.document)
            #expect(document.repository == "test")
            #expect(document.uid == "the-doc-id")
            #expect(document.path == "/folder1/doc0")
            #expect(document.type == "Note")
            #expect(document.changeToken == "1-0")
            #expect(document.isCheckedOut == false)
            #expect(document.isVersion == false)
            #expect(document.isProxy == false)
            #expect(document.isTrashed == false)
            #expect(document.versionLabel == "0.1")
            #expect(document.parentRef == "the-parent-id")
            #expect(document.state == "project")
            #expect(document.title == "Note 0")
            #expect(document.facets == ["Commentable", "Versionable", "Publishable", "HasRelatedText"])
            #expect(document.schemas.count == 6)
            #expect(document.schemas.first == NuxeoSchemaReference(name: "note", prefix: "note"))
            #expect(document.schemas.contains(NuxeoSchemaReference(name: "dublincore", prefix: "dc")))
            #expect(document.properties["uid:major_version"] == .integer(0))
            #expect(document.properties["uid:minor_version"]?.intValue == 1)
            #expect(document.properties["dc:title"] == .string("Note 0"))
            #expect(document.properties.count == 27)
            // unknown keys are ignored by the model but kept raw
            #expect(document.raw["isRecord"] == .bool(false))
            #expect(document.raw["retainUntil"] == .null)
            #expect(document.raw["hasLegalHold"] == .bool(false))
            // a nested documents entity in contextParameters decodes through the registry
            let children = try #require(document.contextParameters["children"])
            let list = try #require(try NuxeoEntityRegistry.standard.decode(json: children).documents)
            #expect(list.entries.isEmpty)
            #expect(list.hasNextPage == false)
        }
    }
}

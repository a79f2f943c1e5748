import Foundation
import NIOCore
import ProviderAPI
import Testing
import HTTPProviderKit
@testable import NuxeoProvider

extension Parsing {
    /// `NuxeoDocumentList.Paging` read from a skim of a page's bytes must be what the whole decode
    /// says: a listing asks for the next page by it, before the page is decoded.
    @Suite("documents paging from a skim") struct DocumentListPagingTests {
        /// The paging of `text` from its skim, and from the whole decode (`nil` when it fails).
        static func both(_ text: String) -> (skimmed: NuxeoDocumentList.Paging?, decoded: NuxeoDocumentList.Paging?) {
            let body = ByteBuffer(string: text)
            let skimmed = JSONByteReader.skimObject(from: body).flatMap(NuxeoDocumentList.Paging.init(skim:))
            let decoded = try? NuxeoEntityRegistry.standard.decode(NuxeoDocumentList.self, from: body).paging
            return (skimmed, decoded)
        }

        static func page(_ members: String, entries count: Int) -> String {
            let entries = (0..<count).map { #"{"entity-type": "document", "uid": "u\#($0)", "path": "/f/d\#($0)", "type": "File", "title": "d\#($0)", "properties": {"dc:title": "[not] {a} \"page\""}}"# }
            return #"{"entity-type": "documents", \#(members), "entries": [\#(entries.joined(separator: ", "))]}"#
        }

        @Test("every recorded documents entity: the skim's paging is the decoded page's")
        func recordings() throws {
            var compared = 0
            for name in Fixtures.jsonNames {
                let data = try Fixtures.data(name)
                guard let list = try? NuxeoEntityRegistry.standard.decode(NuxeoDocumentList.self, from: data) else { continue }
                let skim = try #require(JSONByteReader.skimObject(from: ByteBuffer(bytes: data)), "\(name)")
                #expect(NuxeoDocumentList.Paging(skim: skim) == list.paging, "\(name)")
                compared += 1
            }
            #expect(compared >= 1)
            let recorded = try NuxeoEntityRegistry.standard.decode(
                NuxeoDocumentList.self, from: try Fixtures.data("php-client/document-list.json"))
            // Page 0 of 7 with isNextPageAvailable false: the count still says more.
            #expect(recorded.paging.hasNextPage && recorded.paging.entryCount == 5 && recorded.paging.knownResultsCount == 34)
        }

        @Test("pages as servers send them: the skim's paging is the decoded page's, and says the same of the next page", arguments: [
            // A full page of an uncounted folder (real Nuxeo: -2 above a page), and its last short page.
            (page(#""isPaginable": true, "resultsCount": -2, "pageSize": 3, "currentPageIndex": 0, "numberOfPages": 0, "isNextPageAvailable": true"#, entries: 3), true),
            (page(#""isPaginable": true, "resultsCount": -2, "pageSize": 3, "currentPageIndex": 4, "numberOfPages": 0, "isNextPageAvailable": false"#, entries: 2), false),
            // A counted folder: pages left by the count alone; the last full page.
            (page(#""resultsCount": 9, "pageSize": 3, "currentPageIndex": 1, "numberOfPages": 3, "isNextPageAvailable": false"#, entries: 3), true),
            (page(#""resultsCount": 9, "pageSize": 3, "currentPageIndex": 2, "numberOfPages": 3, "isNextPageAvailable": false"#, entries: 3), false),
            // Older servers: pageIndex and pageCount, numbers as strings, totalSize alone.
            (page(#""totalSize": "9", "pageSize": "3", "pageIndex": "0", "pageCount": "3""#, entries: 3), false),
            (page(#""resultsCount": "9", "pageSize": "3", "pageIndex": 0, "pageCount": 3"#, entries: 3), true),
            // Not paginable; an empty page; no entries at all; null entries.
            (page(#""isPaginable": false, "isNextPageAvailable": true, "pageSize": 3"#, entries: 3), false),
            (page(#""isNextPageAvailable": true, "pageSize": 3"#, entries: 0), false),
            (#"{"entity-type": "documents", "isNextPageAvailable": true}"#, false),
            (#"{"entity-type": "documents", "isNextPageAvailable": true, "entries": null}"#, false),
            // No entity type: read as a documents list, as the decode does.
            (#"{"isNextPageAvailable": true, "pageSize": 1, "entries": [{"uid": "x", "path": "/x", "type": "File"}]}"#, true),
        ])
        func synthesized(_ text: String, more: Bool) throws {
            let (skimmed, decoded) = Self.both(text)
            let paging = try #require(skimmed, "the skim read nothing of \(text)")
            #expect(paging == decoded)
            #expect(paging.hasNextPage == more)
        }

        @Test("what is not a documents entity of the right shape has no paging from its skim", arguments: [
            #"{"entity-type": "document", "uid": "x"}"#,
            #"{"entity-type": "exception", "status": 404}"#,
            #"{"entity-type": "documents", "entries": {"a": 1}}"#,
            #"{"entity-type": "documents", "entries": 3}"#,
            #"{"entity-type": "documents", "pageSize": "three", "entries": []}"#,
            #"{"entity-type": "documents", "isNextPageAvailable": "yes", "entries": []}"#,
            #"{"entity-type": 7, "entries": []}"#,
            #"[{"entity-type": "documents"}]"#,
        ])
        func notDocuments(_ text: String) {
            let (skimmed, decoded) = Self.both(text)
            #expect(skimmed == nil)
            #expect(decoded == nil)
        }
    }
}

import Foundation
import NIOCore
import ProviderAPI
import Testing
import HTTPProviderKit
@testable import NuxeoProvider

extension Parsing {
    /// A page of documents that contradicts itself is not the end of a folder
    /// (`NuxeoDocumentList.Paging.contradiction(atPage:)`); every recorded page is consistent.
    @Suite("documents pages that contradict themselves") struct DocumentListContradictionTests {
        static func paging(_ text: String) throws -> NuxeoDocumentList.Paging {
            try NuxeoEntityRegistry.standard.decode(NuxeoDocumentList.self, from: ByteBuffer(string: text)).paging
        }

        @Test("every recorded documents entity is consistent, page 0 of 7 with isNextPageAvailable false among them")
        func recordings() throws {
            var checked = 0
            for name in Fixtures.jsonNames {
                let data = try Fixtures.data(name)
                guard let list = try? NuxeoEntityRegistry.standard.decode(NuxeoDocumentList.self, from: data) else { continue }
                #expect(list.paging.contradiction(atPage: list.currentPageIndex ?? 0) == nil, "\(name)")
                checked += 1
            }
            #expect(checked >= 1)
            let recorded = try NuxeoEntityRegistry.standard.decode(NuxeoDocumentList.self, from: try Fixtures.data("php-client/document-list.json"))
            #expect(recorded.paging.currentPageSize == 5)
            #expect(recorded.paging.contradiction(atPage: 0) == nil)
        }

        @Test("consistent pages as servers send them", arguments: [
            // Uncounted folder: a full page that says more, its last short page.
            (DocumentListPagingTests.page(#""isPaginable": true, "resultsCount": -2, "pageSize": 3, "currentPageIndex": 0, "numberOfPages": 0, "isNextPageAvailable": true, "currentPageSize": 3"#, entries: 3), 0),
            (DocumentListPagingTests.page(#""isPaginable": true, "resultsCount": -2, "pageSize": 3, "currentPageIndex": 4, "numberOfPages": 0, "isNextPageAvailable": false"#, entries: 2), 4),
            // Counted: a middle page, the last short page, an empty folder.
            (DocumentListPagingTests.page(#""resultsCount": 8, "pageSize": 3, "currentPageIndex": 1, "numberOfPages": 3, "isNextPageAvailable": true"#, entries: 3), 1),
            (DocumentListPagingTests.page(#""resultsCount": 8, "pageSize": 3, "currentPageIndex": 2, "numberOfPages": 3, "isNextPageAvailable": false"#, entries: 2), 2),
            (DocumentListPagingTests.page(#""resultsCount": 0, "pageSize": 1000, "currentPageIndex": 0, "numberOfPages": 0, "isNextPageAvailable": false"#, entries: 0), 0),
            // Not paginated: everything at once.
            (DocumentListPagingTests.page(#""isPaginable": false, "resultsCount": 4, "pageSize": 0"#, entries: 4), 0),
        ])
        func consistent(_ text: String, index: Int) throws {
            #expect(try Self.paging(text).contradiction(atPage: index) == nil)
        }

        @Test("contradictions", arguments: [
            // The issue's first case: a count of 5 and no entries.
            (DocumentListPagingTests.page(#""resultsCount": 5, "pageSize": 1000, "currentPageIndex": 0, "numberOfPages": 1, "isNextPageAvailable": false, "currentPageSize": 0"#, entries: 0), 0),
            // The issue's second: 1 entry of a page size of 1000, and another page follows.
            (DocumentListPagingTests.page(#""resultsCount": -2, "pageSize": 1000, "currentPageIndex": 0, "numberOfPages": 0, "isNextPageAvailable": true"#, entries: 1), 0),
            // An empty page that says more follows.
            (DocumentListPagingTests.page(#""resultsCount": -2, "pageSize": 3, "currentPageIndex": 1, "isNextPageAvailable": true"#, entries: 0), 1),
            // A short page while the page count says more follow.
            (DocumentListPagingTests.page(#""resultsCount": -2, "pageSize": 3, "currentPageIndex": 0, "numberOfPages": 4"#, entries: 2), 0),
            // A page that says it holds more than it sends.
            (DocumentListPagingTests.page(#""resultsCount": -2, "pageSize": 3, "currentPageSize": 3"#, entries: 2), 0),
            // More entries than the count leaves for this page; more than the page size.
            (DocumentListPagingTests.page(#""resultsCount": 4, "pageSize": 3, "currentPageIndex": 1"#, entries: 3), 1),
            (DocumentListPagingTests.page(#""resultsCount": -2, "pageSize": 3"#, entries: 4), 0),
            // A count not reached by a full middle page's neighbour: page 1 of a count of 9 short.
            (DocumentListPagingTests.page(#""resultsCount": 9, "pageSize": 3, "currentPageIndex": 1"#, entries: 2), 1),
            // Page 2 asked for, page 0 answered.
            (DocumentListPagingTests.page(#""resultsCount": -2, "pageSize": 3, "currentPageIndex": 0"#, entries: 3), 2),
        ])
        func contradictions(_ text: String, index: Int) throws {
            let said = try Self.paging(text).contradiction(atPage: index)
            #expect(said != nil, "\(text)")
        }
    }
}

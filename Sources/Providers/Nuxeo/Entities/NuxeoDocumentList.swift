import Foundation
import ProviderAPI
import HTTPProviderKit

/// The Nuxeo `documents` entity: a page of documents from `@children`, a search or an operation.
///
/// Beware the counts: a folder with more children than a page holds reports
/// `resultsCount: -2` (unknown size) and `numberOfPages: 0`. Use ``hasNextPage`` to decide
/// whether to fetch the next page, and ``knownResultsCount`` rather than `resultsCount`.
public struct NuxeoDocumentList: NuxeoEntityDecodable, Hashable {
    package static let entityType = "documents"

    /// Whether the list is paged; a non-paged list has only ``entries`` (and maybe ``totalSize``).
    package var isPaginable: Bool?
    /// The total number of results as the server sent it; `-2` means unknown, `-1` not computed.
    package var resultsCount: Int?
    /// The page size used.
    package var pageSize: Int?
    /// The largest page size the server allows (1000 by default).
    package var maxPageSize: Int?
    /// The number of entries on this page.
    package var currentPageSize: Int?
    /// The 0-based index of this page.
    package var currentPageIndex: Int?
    /// The offset of this page's first entry.
    package var currentPageOffset: Int?
    /// The number of pages; `0` when the total is unknown.
    package var numberOfPages: Int?
    /// Whether a previous page exists.
    package var isPreviousPageAvailable: Bool?
    /// Whether the server says a next page exists.
    package var isNextPageAvailable: Bool?
    /// Whether the last page can be addressed.
    package var isLastPageAvailable: Bool?
    /// Whether the list can be sorted.
    package var isSortable: Bool?
    /// Whether the query failed (the search endpoint turns this into a 400).
    package var hasError: Bool?
    /// The query error, with ``hasError``.
    package var errorMessage: String?
    /// The legacy duplicate of ``resultsCount``.
    package var totalSize: Int?
    /// The documents.
    public var entries: [NuxeoDocument]

    package init(nuxeoJSON json: JSONValue) throws {
        let entity = "documents"
        let members = try json.entityMembers(entity)
        if let type = members["entity-type"]?.stringValue, type != Self.entityType {
            throw ProviderError(.invalidResponse, "expected a Nuxeo documents list, got entity-type \"\(type)\"")
        }
        let entries = try members.optionalArray("entries", in: entity)
        let paging = try Paging(members: members, entryCount: entries.count)
        isPaginable = paging.isPaginable
        resultsCount = paging.resultsCount
        pageSize = paging.pageSize
        maxPageSize = try members.optionalInt("maxPageSize", in: entity)
        currentPageSize = try members.optionalInt("currentPageSize", in: entity)
        currentPageIndex = paging.currentPageIndex
        currentPageOffset = try members.optionalInt("currentPageOffset", in: entity)
        numberOfPages = paging.numberOfPages
        isPreviousPageAvailable = try members.optionalBool("isPreviousPageAvailable", in: entity)
        isNextPageAvailable = paging.isNextPageAvailable
        isLastPageAvailable = try members.optionalBool("isLastPageAvailable", in: entity)
        isSortable = try members.optionalBool("isSortable", in: entity)
        hasError = try members.optionalBool("hasError", in: entity)
        errorMessage = try members.optionalString("errorMessage", in: entity)
        totalSize = paging.totalSize
        self.entries = try entries.map(NuxeoDocument.init(nuxeoJSON:))
    }

    /// What this page says of the pages after it (see ``Paging``).
    package var paging: Paging {
        Paging(
            isPaginable: isPaginable, resultsCount: resultsCount, pageSize: pageSize, currentPageIndex: currentPageIndex,
            numberOfPages: numberOfPages, isNextPageAvailable: isNextPageAvailable, totalSize: totalSize,
            entryCount: entries.count, currentPageSize: currentPageSize)
    }

    /// The total number of results when the server knows it; `nil` for the `-2`/`-1` sentinels.
    public var knownResultsCount: Int? { paging.knownResultsCount }

    /// Whether the next page should be fetched (the server's `isNextPageAvailable`, read with care).
    public var hasNextPage: Bool { paging.hasNextPage }
}

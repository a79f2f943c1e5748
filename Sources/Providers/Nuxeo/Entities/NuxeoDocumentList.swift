import Foundation
import ProviderAPI
import HTTPProviderKit

/// The Nuxeo `documents` entity: a page of documents from `@children`, a search or an operation.
///
/// Beware the counts: a folder with more children than a page holds reports
/// `resultsCount: -2` (unknown size) and `numberOfPages: 0`. Use ``hasNextPage`` to decide
/// whether to fetch the next page, and ``knownResultsCount`` rather than ``resultsCount``.
public struct NuxeoDocumentList: NuxeoEntityDecodable, Hashable {
    public static let entityType = "documents"

    /// Whether the list is paged; a non-paged list has only ``entries`` (and maybe ``totalSize``).
    public var isPaginable: Bool?
    /// The total number of results as the server sent it; `-2` means unknown, `-1` not computed.
    public var resultsCount: Int?
    /// The page size used.
    public var pageSize: Int?
    /// The largest page size the server allows (1000 by default).
    public var maxPageSize: Int?
    /// The number of entries on this page.
    public var currentPageSize: Int?
    /// The 0-based index of this page.
    public var currentPageIndex: Int?
    /// The offset of this page's first entry.
    public var currentPageOffset: Int?
    /// The number of pages; `0` when the total is unknown.
    public var numberOfPages: Int?
    /// Whether a previous page exists.
    public var isPreviousPageAvailable: Bool?
    /// Whether the server says a next page exists.
    public var isNextPageAvailable: Bool?
    /// Whether the last page can be addressed.
    public var isLastPageAvailable: Bool?
    /// Whether the list can be sorted.
    public var isSortable: Bool?
    /// Whether the query failed (the search endpoint turns this into a 400).
    public var hasError: Bool?
    /// The query error, with ``hasError``.
    public var errorMessage: String?
    /// The legacy duplicate of ``resultsCount``.
    public var totalSize: Int?
    /// The documents.
    public var entries: [NuxeoDocument]

    public init(nuxeoJSON json: JSONValue) throws {
        let entity = "documents"
        let members = try json.entityMembers(entity)
        if let type = members["entity-type"]?.stringValue, type != Self.entityType {
            throw ProviderError(.invalidResponse, "expected a Nuxeo documents list, got entity-type \"\(type)\"")
        }
        isPaginable = try members.optionalBool("isPaginable", in: entity)
        resultsCount = try members.optionalInt("resultsCount", in: entity)
        pageSize = try members.optionalInt("pageSize", in: entity)
        maxPageSize = try members.optionalInt("maxPageSize", in: entity)
        currentPageSize = try members.optionalInt("currentPageSize", in: entity)
        currentPageIndex = try members.optionalInt("currentPageIndex", in: entity) ?? members.optionalInt("pageIndex", in: entity)
        currentPageOffset = try members.optionalInt("currentPageOffset", in: entity)
        numberOfPages = try members.optionalInt("numberOfPages", in: entity) ?? members.optionalInt("pageCount", in: entity)
        isPreviousPageAvailable = try members.optionalBool("isPreviousPageAvailable", in: entity)
        isNextPageAvailable = try members.optionalBool("isNextPageAvailable", in: entity)
        isLastPageAvailable = try members.optionalBool("isLastPageAvailable", in: entity)
        isSortable = try members.optionalBool("isSortable", in: entity)
        hasError = try members.optionalBool("hasError", in: entity)
        errorMessage = try members.optionalString("errorMessage", in: entity)
        totalSize = try members.optionalInt("totalSize", in: entity)
        entries = try members.optionalArray("entries", in: entity).map(NuxeoDocument.init(nuxeoJSON:))
    }

    /// The total number of results when the server knows it; `nil` for the `-2`/`-1` sentinels.
    public var knownResultsCount: Int? {
        if let resultsCount, resultsCount >= 0 { return resultsCount }
        if resultsCount == nil, let totalSize, totalSize >= 0 { return totalSize }
        return nil
    }

    /// Whether the next page should be fetched.
    ///
    /// The rule: stop on an empty page, and on a short page (fewer entries than ``pageSize``).
    /// Otherwise continue when the server says `isNextPageAvailable`, or when a known page
    /// count says pages remain — the recorded `document-list.json` has
    /// `isNextPageAvailable: false` on page 0 of 7, so the flag alone is not trusted to stop
    /// early. A negative count (`-2`) or `numberOfPages: 0` is never trusted.
    public var hasNextPage: Bool {
        guard !entries.isEmpty else { return false }
        guard isPaginable != false else { return false }
        if let pageSize, pageSize > 0, entries.count < pageSize { return false }
        if isNextPageAvailable == true { return true }
        if let pages = numberOfPages, pages > 0, let count = resultsCount, count >= 0,
           let index = currentPageIndex, index >= 0, index < pages - 1 {
            return true
        }
        return false
    }
}

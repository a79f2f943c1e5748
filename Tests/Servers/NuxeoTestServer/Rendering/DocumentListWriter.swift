import Foundation

/// Writes paginated `documents` entities (spec §2.4).
struct DocumentListWriter {
    let writer: DocumentWriter

    /// - Parameters:
    ///   - all: every matching document, already sorted.
    ///   - unknownSize: answer `resultsCount: -2` when there are more than `pageSize` (the `@children` trap).
    ///   - contradiction: a page that contradicts itself instead of the true one (``NuxeoFaults/contradictListings(_:)``).
    func page(
        _ all: [StoredDocument], pageSize: Int, pageIndex: Int, maxPageSize: Int, unknownSize: Bool,
        contradiction: NuxeoFaults.ListingContradiction? = nil
    ) -> NXJSON {
        let offset = pageSize == 0 ? 0 : pageIndex * pageSize
        let end = pageSize == 0 ? all.count : min(all.count, offset + pageSize)
        var entries = offset < all.count ? Array(all[offset..<end]) : []
        let total = all.count
        let unknown = unknownSize && pageSize > 0 && total > pageSize
        let pages = pageSize == 0 ? 1 : (total + pageSize - 1) / pageSize
        var hasNext = pageSize > 0 && offset + pageSize < total
        var resultsCount: Int64 = unknown ? -2 : Int64(total)
        var numberOfPages: Int64 = unknown ? 0 : Int64(pages)
        switch contradiction {
        case .none: break
        case .countWithoutEntries:
            entries = []
            resultsCount = Int64(total)
            numberOfPages = Int64(pages)
            hasNext = false
        case .shortPageSaysMore:
            entries = Array(entries.prefix(1))
            resultsCount = -2
            numberOfPages = 0
            hasNext = true
        }
        return .object([
            ("entity-type", .string("documents")),
            ("isPaginable", .bool(true)),
            ("resultsCount", .int(resultsCount)),
            ("pageSize", .int(Int64(pageSize))),
            ("maxPageSize", .int(Int64(maxPageSize))),
            ("resultsCountLimit", .int(0)),
            ("currentPageSize", .int(Int64(entries.count))),
            ("currentPageIndex", .int(Int64(pageIndex))),
            ("currentPageOffset", .int(Int64(offset))),
            ("numberOfPages", .int(numberOfPages)),
            ("isPreviousPageAvailable", .bool(pageIndex > 0)),
            ("isNextPageAvailable", .bool(hasNext)),
            ("isLastPageAvailable", .bool(hasNext)),
            ("isSortable", .bool(true)),
            ("hasError", .bool(false)),
            ("errorMessage", .null),
            ("totalSize", .int(resultsCount)),
            ("pageIndex", .int(Int64(pageIndex))),
            ("pageCount", .int(numberOfPages)),
            ("entries", .array(entries.map { writer.document($0) })),
        ])
    }
}

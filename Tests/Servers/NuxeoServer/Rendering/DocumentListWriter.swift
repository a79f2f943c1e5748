import Foundation

/// Writes paginated `documents` entities (spec §2.4).
struct DocumentListWriter {
    let writer: DocumentWriter

    /// - Parameters:
    ///   - all: every matching document, already sorted.
    ///   - unknownSize: answer `resultsCount: -2` when there are more than `pageSize` (the `@children` trap).
    func page(_ all: [StoredDocument], pageSize: Int, pageIndex: Int, maxPageSize: Int, unknownSize: Bool) -> NXJSON {
        let offset = pageSize == 0 ? 0 : pageIndex * pageSize
        let end = pageSize == 0 ? all.count : min(all.count, offset + pageSize)
        let entries = offset < all.count ? Array(all[offset..<end]) : []
        let total = all.count
        let unknown = unknownSize && pageSize > 0 && total > pageSize
        let pages = pageSize == 0 ? 1 : (total + pageSize - 1) / pageSize
        let hasNext = pageSize > 0 && offset + pageSize < total
        let resultsCount: Int64 = unknown ? -2 : Int64(total)
        let numberOfPages: Int64 = unknown ? 0 : Int64(pages)
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

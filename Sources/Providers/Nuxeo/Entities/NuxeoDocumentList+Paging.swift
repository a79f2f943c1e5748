import ProviderAPI
import HTTPProviderKit

extension NuxeoDocumentList {
    /// What a page of documents says of the pages after it: the members ``hasNextPage`` and
    /// ``knownResultsCount`` are told from, and the number of entries.
    ///
    /// A page's paging can be read from its skim (``init(skim:)``), before its entries are
    /// decoded, and it is then the same as the ``NuxeoDocumentList/paging`` of the whole page: a
    /// listing asks for the next page as soon as a page arrives, and decodes this one meanwhile.
    public struct Paging: Sendable, Hashable {
        /// `isPaginable`.
        public var isPaginable: Bool?
        /// `resultsCount`; `-2` means unknown, `-1` not computed.
        public var resultsCount: Int?
        /// `pageSize`.
        public var pageSize: Int?
        /// `currentPageIndex`, or the older `pageIndex`.
        public var currentPageIndex: Int?
        /// `numberOfPages`, or the older `pageCount`.
        public var numberOfPages: Int?
        /// `isNextPageAvailable`.
        public var isNextPageAvailable: Bool?
        /// `totalSize`, the legacy duplicate of ``resultsCount``.
        public var totalSize: Int?
        /// The number of entries on the page.
        public var entryCount: Int
        /// `currentPageSize`: the number of entries the page says it holds.
        public var currentPageSize: Int?

        /// Creates the paging of a page.
        public init(
            isPaginable: Bool?, resultsCount: Int?, pageSize: Int?, currentPageIndex: Int?, numberOfPages: Int?,
            isNextPageAvailable: Bool?, totalSize: Int?, entryCount: Int, currentPageSize: Int? = nil
        ) {
            self.currentPageSize = currentPageSize
            self.isPaginable = isPaginable
            self.resultsCount = resultsCount
            self.pageSize = pageSize
            self.currentPageIndex = currentPageIndex
            self.numberOfPages = numberOfPages
            self.isNextPageAvailable = isNextPageAvailable
            self.totalSize = totalSize
            self.entryCount = entryCount
        }

        /// Reads the paging members of a `documents` entity as ``NuxeoDocumentList/init(nuxeoJSON:)`` does.
        init(members: [String: JSONValue], entryCount: Int) throws {
            let entity = "documents"
            self.init(
                isPaginable: try members.optionalBool("isPaginable", in: entity),
                resultsCount: try members.optionalInt("resultsCount", in: entity),
                pageSize: try members.optionalInt("pageSize", in: entity),
                currentPageIndex: try members.optionalInt("currentPageIndex", in: entity) ?? members.optionalInt("pageIndex", in: entity),
                numberOfPages: try members.optionalInt("numberOfPages", in: entity) ?? members.optionalInt("pageCount", in: entity),
                isNextPageAvailable: try members.optionalBool("isNextPageAvailable", in: entity),
                totalSize: try members.optionalInt("totalSize", in: entity),
                entryCount: entryCount, currentPageSize: try members.optionalInt("currentPageSize", in: entity))
        }

        /// The paging of a `documents` entity from the skim of its body; `nil` when the skim is of
        /// another entity type, or its members do not have the shapes a `documents` entity needs
        /// (the whole decode then says what is wrong).
        package init?(skim: JSONObjectSkim) {
            if let type = skim["entity-type"], type != .value(.string(NuxeoDocumentList.entityType)) { return nil }
            let entryCount: Int
            switch skim["entries"] {
            case .none, .value(.null): entryCount = 0
            case .array(let count): entryCount = count
            default: return nil
            }
            guard let paging = try? Paging(members: skim.values, entryCount: entryCount) else { return nil }
            self = paging
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
            guard entryCount > 0 else { return false }
            guard isPaginable != false else { return false }
            if let pageSize, pageSize > 0, entryCount < pageSize { return false }
            if isNextPageAvailable == true { return true }
            if let pages = numberOfPages, pages > 0, let count = resultsCount, count >= 0,
               let index = currentPageIndex, index >= 0, index < pages - 1 {
                return true
            }
            return false
        }

        /// What in this page, asked for as page `index`, contradicts itself, or `nil` when nothing
        /// does; a listing that meets one is not the whole folder and must not be taken as one.
        ///
        /// The rules, each of which every recorded answer keeps (the recorded `document-list.json`,
        /// page 0 of 7 with `isNextPageAvailable: false`, is consistent: the flag alone proves nothing):
        /// - `currentPageSize` equals the entries sent;
        /// - a paged answer (``pageSize`` above 0) sends no more entries than its page size;
        /// - a known count (``knownResultsCount``) says how many entries page `index` holds: all
        ///   the rest up to a page size, and exactly that many are sent;
        /// - a page that says another follows (`isNextPageAvailable: true`, or a `numberOfPages`
        ///   past `index`) is full: an empty or short page would end the listing early;
        /// - `currentPageIndex`, when given, is `index`.
        public func contradiction(atPage index: Int) -> String? {
            let paged = isPaginable != false && (pageSize ?? 0) > 0
            let size = paged ? (pageSize ?? 0) : 0
            if let currentPageIndex, currentPageIndex != index {
                return "page \(index) answered as page \(currentPageIndex)"
            }
            if let currentPageSize, currentPageSize >= 0, currentPageSize != entryCount {
                return "page \(index) says it holds \(currentPageSize) entries but sends \(entryCount)"
            }
            if paged, entryCount > size {
                return "page \(index) sends \(entryCount) entries, more than its page size of \(size)"
            }
            if let count = knownResultsCount {
                let expected: Int
                if paged {
                    let (before, overflow) = index.multipliedReportingOverflow(by: size)
                    expected = overflow || before >= count ? 0 : min(size, count - before)
                } else {
                    expected = index == 0 ? count : 0
                }
                if entryCount != expected {
                    return "page \(index) declares \(count) results in all, so it should hold \(expected) entries, but it sends \(entryCount)"
                }
            }
            let short = entryCount == 0 || (paged && entryCount < size)
            if short, isNextPageAvailable == true {
                return paged
                    ? "page \(index) sends \(entryCount) entries of a page size of \(size) yet says another page follows"
                    : "page \(index) sends \(entryCount) entries yet says another page follows"
            }
            if short, isPaginable != false, let pages = numberOfPages, pages > 0, index < pages - 1 {
                return "page \(index) of \(pages) sends \(entryCount) entries of a page size of \(size), ending the listing early"
            }
            return nil
        }
    }
}

import Foundation

/// Checks the pages of one listing or search as they come, and stops a loop that a broken or
/// hostile server would make endless.
///
/// A page loop admits each page before asking for the next one. ``admit(_:)`` (or
/// ``admit(keys:cursor:hasMore:)`` for an adapter's own wire pages) throws
/// ``ProviderError/Code/invalidResponse``, naming the listing, when:
/// - a cursor comes back that an earlier page already gave (the server sends the loop round);
/// - a page has the same entries as an earlier page (the same page again under a new cursor);
/// - a page has no entries yet says more follow (nothing new, forever);
/// - the listing passes ``PageLimits/maxPages`` pages or ``PageLimits/maxEntries`` entries;
/// - in a listing (``listing(of:limits:)``), a page brings the entries past the
///   ``ItemPage/totalCount`` it declares.
///
/// At the end of a listing, ``completeness()`` holds the first page's declared count to the
/// entries received, and says what the listing knows of itself (``ListingCompleteness``).
///
/// It keeps one cursor and one small fingerprint per page, never the entries themselves.
///
/// ```swift
/// var pages = PageGuard("the listing of \(folder)", limits: provider.pageLimits)
/// var request = PageRequest()
/// while true {
///     let page = try await provider.list(folder, page: request)
///     try pages.admit(page)
///     show(page.items)
///     guard let next = page.next else { break }
///     request.cursor = next
/// }
/// ```
package struct PageGuard: Sendable {
    /// What is being paged, as error messages name it, such as `the listing of /Reports`.
    package var subject: String {
        switch named {
        case .text(let text): return text
        case .listing(let folder): return "the listing of \(folder)"
        }
    }
    /// The subject, written out only for an error: a folder's path is as long as the tree is deep.
    private let named: Subject
    private enum Subject: Sendable {
        case text(String)
        case listing(ItemPath)
    }
    /// The ceilings.
    package let limits: PageLimits
    /// The pages admitted so far.
    package private(set) var pages = 0
    /// The entries admitted so far.
    package private(set) var entries = 0
    /// Whether the pages' declared counts are held to their entries (listings, not searches,
    /// whose totals some servers estimate).
    package let checksCounts: Bool
    /// The count the first page admitted declared (``ItemPage/totalCount``), if it declared one.
    package private(set) var declaredCount: Int?
    /// The pages' completeness so far, joined (`ListingCompleteness.joined(with:)`);
    /// ``ListingCompleteness/ended`` before the first page.
    package var pagesCompleteness: ListingCompleteness { joinedCompleteness ?? .ended }
    private var joinedCompleteness: ListingCompleteness?
    private var cursors: Set<String> = []
    private var fingerprints: Set<Fingerprint> = []

    private struct Fingerprint: Hashable {
        var count: Int
        var sum: Int
        var xor: Int
    }

    /// Creates a guard for one listing or search.
    ///
    /// - Parameters:
    ///   - subject: what is being paged, as error messages name it (`the search results`).
    ///   - limits: the ceilings.
    ///   - checksCounts: whether the pages' declared counts (``ItemPage/totalCount``) are held to
    ///     their entries, as in a listing.
    package init(_ subject: String, limits: PageLimits = .standard, checksCounts: Bool = false) {
        self.init(named: .text(subject), limits: limits, checksCounts: checksCounts)
    }

    private init(named: Subject, limits: PageLimits, checksCounts: Bool) {
        self.named = named
        self.limits = limits
        self.checksCounts = checksCounts
    }

    /// A guard for the listing of `folder`, which holds the pages to the counts they declare.
    package static func listing(of folder: ItemPath, limits: PageLimits = .standard) -> PageGuard {
        PageGuard(named: .listing(folder), limits: limits, checksCounts: true)
    }

    /// Admits a page of items (keyed by path), with its cursor to the next page.
    ///
    /// - Throws: ``ProviderError/Code/invalidResponse`` when the page repeats, brings nothing
    ///   new, passes a limit, or (``checksCounts``) brings the entries past the count it declares.
    package mutating func admit(_ page: ItemPage) throws {
        // The paths read in place: a `map(\.path)` over the items copied every item (a retain of each of its fields) for its path.
        let items = page.items
        try admit(keys: items.indices.lazy.map { items[$0].path }, cursor: page.next, hasMore: page.next != nil)
        joinedCompleteness = joinedCompleteness.map { $0.joined(with: page.completeness) } ?? page.completeness
        guard checksCounts, let declared = page.totalCount else { return }
        if pages == 1 { declaredCount = declared }
        if declared < 0 {
            throw ProviderError(.invalidResponse, "\(subject) declared a count of \(declared) entries on page \(pages)")
        }
        if entries > declared {
            throw ProviderError(
                .invalidResponse, "\(subject) declared \(declared) entries on page \(pages) but its pages so far hold \(entries)")
        }
    }

    /// What the listing admitted so far knows of itself, once its last page is admitted: the
    /// pages' completeness joined, after the first page's declared count is checked.
    ///
    /// Call it only for a listing admitted from its first page: the first page's count is of the
    /// whole folder.
    ///
    /// - Throws: ``ProviderError/Code/invalidResponse`` when the first page declared a count
    ///   (``ItemPage/totalCount``) that the entries of all the pages do not match: the listing
    ///   ended early, or the server's count is wrong, and it cannot be taken as the whole folder.
    package func completeness() throws -> ListingCompleteness {
        guard checksCounts, let declaredCount else { return pagesCompleteness }
        guard declaredCount == entries else {
            throw ProviderError(
                .invalidResponse,
                "\(subject) declared \(declaredCount) entries on its first page but its \(pages) page(s) hold \(entries)")
        }
        return pagesCompleteness
    }

    /// Admits one page given by the keys of its entries (ids or paths: what tells entries apart),
    /// the cursor to the next page where there is one, and whether the server says more pages follow.
    ///
    /// - Throws: ``ProviderError/Code/invalidResponse`` when the page repeats, brings nothing
    ///   new, or passes a limit.
    package mutating func admit<Keys: Collection>(keys: Keys, cursor: PageCursor? = nil, hasMore: Bool) throws
    where Keys.Element: Hashable {
        pages += 1
        let count = keys.count
        if pages > limits.maxPages {
            throw ProviderError(.invalidResponse, "\(subject) goes on past \(limits.maxPages) pages (the maxPages limit)")
        }
        let (total, overflow) = entries.addingReportingOverflow(count)
        if overflow || total > limits.maxEntries {
            throw ProviderError(.invalidResponse, "\(subject) goes on past \(limits.maxEntries) entries (the maxEntries limit)")
        }
        entries = total
        if count == 0 {
            if hasMore { throw ProviderError(.invalidResponse, "\(subject) sent an empty page \(pages) that says more pages follow") }
        } else {
            // Order does not matter: the same entries reshuffled are the same page.
            var fingerprint = Fingerprint(count: count, sum: 0, xor: 0)
            for key in keys {
                let hash = key.hashValue
                fingerprint.sum &+= hash
                fingerprint.xor ^= hash &* 0x1E37_79B9_7F4A_7C15
            }
            guard fingerprints.insert(fingerprint).inserted else {
                throw ProviderError(.invalidResponse, "\(subject) sent page \(pages) with the same entries as an earlier page")
            }
        }
        if let cursor, !cursors.insert(cursor.rawValue).inserted {
            throw ProviderError(.invalidResponse, "\(subject) repeats a page cursor at page \(pages)")
        }
    }
}

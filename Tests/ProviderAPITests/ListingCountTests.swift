import Foundation
import ProviderAPI
import StrataTestSupport
import Testing

/// A listing proves itself before anything is deleted on its strength: the count a page declares
/// holds its entries (``PageGuard``), and the listing says what it knows (``ListingCompleteness``).
@Suite("Listings held to the counts they declare")
struct ListingCountTests {
    @Test("a first page that declares 5 and sends none is invalidResponse, not an empty folder")
    func countWithoutEntries() async {
        let provider = PagedProvider(pages: { _ in ItemPage(items: [], totalCount: 5) })
        await expectInvalidResponse("declared 5 entries") { _ = try await provider.listAll("/big") }
        await expectInvalidResponse("declared 5 entries") { _ = try await provider.listing("/big", pageSize: 2) }
    }

    @Test("pages that end before the count the first declared are invalidResponse")
    func earlyEnd() async {
        // 3 pages of 10 promised, 2 sent, the second saying it is the last.
        let provider = PagedProvider(pages: { index in
            ItemPage(items: files(index * 10..<index * 10 + 10), next: index < 1 ? PageCursor(String(index + 1)) : nil, totalCount: 30)
        })
        await expectInvalidResponse("declared 30 entries on its first page but its 2 page(s) hold 20") { _ = try await provider.listAll("/big") }
    }

    @Test("a page that brings the entries past the count it declares is invalidResponse at once")
    func pastTheCount() async {
        let provider = PagedProvider(pages: { index in
            ItemPage(items: files(index * 10..<index * 10 + 10), next: PageCursor(String(index + 1)), totalCount: 15)
        })
        await expectInvalidResponse("declared 15 entries on page 2") { _ = try await provider.listAll("/big") }
        let negative = PagedProvider(pages: { _ in ItemPage(items: files(0..<2), totalCount: -1) })
        await expectInvalidResponse("declared a count of -1") { _ = try await negative.listAll("/big") }
    }

    @Test("completeness: the pages' own, joined (the weakest page's), once the count matched")
    func completeness() async throws {
        let counted = PagedProvider(pages: { index in
            ItemPage(
                items: files(index * 10..<index * 10 + 10), next: index < 2 ? PageCursor(String(index + 1)) : nil, totalCount: 30,
                completeness: .counted)
        })
        let listed = try await counted.listing("/big")
        #expect(listed.items.count == 30)
        #expect(listed.completeness == .counted)
        let ended = PagedProvider(pages: { index in ItemPage(items: files(index * 10..<index * 10 + 10), next: index < 2 ? PageCursor(String(index + 1)) : nil) })
        #expect(try await ended.listing("/big").completeness == .ended)
        let partial = PagedProvider(pages: { index in
            ItemPage(
                items: files(index * 10..<index * 10 + 10), next: index < 2 ? PageCursor(String(index + 1)) : nil, totalCount: 30,
                completeness: index == 1 ? .partial : .ended)
        })
        let weakest = try await partial.listing("/big")
        #expect(weakest.completeness == .partial)
        #expect(!weakest.completeness.isComplete)
        #expect(ListingCompleteness.cached.joined(with: .counted) == .cached)
        #expect(ListingCompleteness.counted.isComplete && ListingCompleteness.ended.isComplete && !ListingCompleteness.cached.isComplete)
    }

    @Test("a search's totals are not held to its entries (some servers estimate them)")
    func searchesNotCounted() throws {
        var search = PageGuard("the search results")
        try search.admit(ItemPage(items: files(0..<3), totalCount: 1))
        #expect(try search.completeness() == .ended)
    }

    @Test("a page decoded from before completeness existed is ended")
    func decodesOldPages() throws {
        let page = try JSONDecoder().decode(ItemPage.self, from: Data(#"{"items": [], "totalCount": 0}"#.utf8))
        #expect(page.completeness == .ended)
        let again = try JSONDecoder().decode(ItemPage.self, from: try JSONEncoder().encode(ItemPage(items: [], completeness: .cached)))
        #expect(again.completeness == .cached)
    }
}

import Foundation
import ProviderAPI
import StrataTestSupport
import Testing
import ProviderKit

/// A provider whose listing pages come from a closure: page number (0-based) → page.
struct PagedProvider: StubProvider {
    let pages: @Sendable (Int) -> ItemPage
    var limits: PageLimits = .standard
    var capabilities: Capabilities { Capabilities(features: [.paging]) }
    var account: ProviderAccount { ProviderAccount(kind: "paged", server: "memory") }
    var pageLimits: PageLimits { limits }

    func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        pages(page.cursor.flatMap { Int($0.rawValue) } ?? 0)
    }
}

func files(_ names: some Sequence<Int>) -> [Item] {
    names.map { Item(path: try! ItemPath("/big/f\($0)"), kind: .file) }
}

/// Expects `body` to fail with invalidResponse whose message contains `words` and names the folder.
func expectInvalidResponse(_ words: String, _ body: () async throws -> Void) async {
    do {
        try await body()
        Issue.record("no error; expected invalidResponse (\(words))")
    } catch let error as ProviderError {
        #expect(error.code == .invalidResponse, "\(error)")
        #expect(error.message?.contains(words) == true, "\(error)")
        #expect(error.message?.contains("/big") == true, "\(error)")
    } catch {
        Issue.record("unexpected \(error)")
    }
}

@Suite("Page loops are bounded (PageGuard, listAll, children)")
struct PageGuardTests {
    @Test("a normal listing of several pages goes through whole")
    func normal() async throws {
        let provider = PagedProvider(pages: { index in
            ItemPage(items: files(index * 10..<index * 10 + 10), next: index < 4 ? PageCursor(String(index + 1)) : nil)
        })
        #expect(try await provider.listAll("/big").count == 50)
        var count = 0
        for try await _ in provider.children(of: "/big") { count += 1 }
        #expect(count == 50)
    }

    @Test("the same cursor again stops the loop")
    func repeatedCursor() async {
        // Pages 0 → 1 → 1 → …, each with new entries, so only the cursor repeats.
        let provider = PagedProvider(pages: { index in ItemPage(items: files(index * 100..<index * 100 + 3 + index), next: PageCursor("1")) })
        await expectInvalidResponse("repeats a page cursor") { _ = try await provider.listAll("/big") }
    }

    @Test("the same page again under a new cursor stops the loop")
    func samePage() async {
        let provider = PagedProvider(pages: { index in ItemPage(items: files(0..<5), next: PageCursor(String(index + 1))) })
        await expectInvalidResponse("same entries") { _ = try await provider.listAll("/big") }
        await expectInvalidResponse("same entries") { for try await _ in provider.children(of: "/big") {} }
    }

    @Test("two pages in turn (A, B, A, …) stop at the first repeat")
    func alternating() async {
        let provider = PagedProvider(pages: { index in
            ItemPage(items: files(index.isMultiple(of: 2) ? 0..<3 : 3..<6), next: PageCursor(String(index + 1)))
        })
        await expectInvalidResponse("same entries") { _ = try await provider.listAll("/big") }
    }

    @Test("an empty page that says more follow stops the loop")
    func emptyPageWithMore() async {
        let provider = PagedProvider(pages: { index in ItemPage(items: [], next: PageCursor(String(index + 1))) })
        await expectInvalidResponse("empty page") { _ = try await provider.listAll("/big") }
    }

    @Test("endless new entries stop at maxPages")
    func maxPages() async {
        var provider = PagedProvider(pages: { index in ItemPage(items: files([index]), next: PageCursor(String(index + 1))) })
        provider.limits = PageLimits(maxPages: 50)
        await expectInvalidResponse("50 pages") { _ = try await provider.listAll("/big") }
    }

    @Test("endless new entries stop at maxEntries")
    func maxEntries() async {
        var provider = PagedProvider(pages: { index in
            ItemPage(items: files(index * 100..<index * 100 + 100), next: PageCursor(String(index + 1)))
        })
        provider.limits = PageLimits(maxEntries: 1000)
        await expectInvalidResponse("1000 entries") { _ = try await provider.listAll("/big") }
    }

    @Test("the limits are read from the maxPages and maxEntries options, and refused when malformed")
    func options() throws {
        var configuration = ProviderConfiguration(url: URL(string: "http://127.0.0.1/")!, options: ["maxPages": "7", "maxEntries": "70"])
        #expect(try configuration.resolvedPageLimits() == PageLimits(maxPages: 7, maxEntries: 70))
        configuration.options = [:]
        configuration.pageLimits = PageLimits(maxPages: 3)
        #expect(try configuration.resolvedPageLimits().maxPages == 3)
        #expect(PageLimits.standard == PageLimits(maxPages: 100_000, maxEntries: 10_000_000))
        for bad in ["0", "-1", "many", "99999999999999999999999"] {
            configuration.options = ["maxPages": bad]
            #expect(throws: ProviderError.self) { _ = try configuration.resolvedPageLimits() }
        }
    }

    @Test("a guard admits pages by keys and checks the entry count without overflowing")
    func keys() throws {
        var pages = PageGuard("the search results", limits: PageLimits(maxEntries: Int.max))
        try pages.admit(keys: ["a", "b"], hasMore: true)
        try pages.admit(keys: ["b", "c"], hasMore: false)
        #expect(pages.pages == 2 && pages.entries == 4)
        // The same entries in another order are the same page.
        #expect(throws: ProviderError.self) { try pages.admit(keys: ["c", "b"], hasMore: true) }
    }
}

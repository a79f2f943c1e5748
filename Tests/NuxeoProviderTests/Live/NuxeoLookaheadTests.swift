import Foundation
@testable import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import Testing
import HTTPProviderKit
import NIOConcurrencyHelpers

/// Listings fetched one page ahead (``PageLookahead``) give what a serial page loop gives.
///
/// Serialized: several tests hold a decoder (which runs on a thread of Swift's pool when not called
/// from an event loop) until the server has seen a request; run side by side on a 2-core machine,
/// two of them held both of the pool's threads, and the tasks that send those requests waited.
@Suite("Nuxeo listings one page ahead on the loopback server", .serialized)
struct NuxeoLookaheadTests {
    /// The `currentPageIndex` of every `@children` request the server saw, in order.
    static func childrenPages(_ nuxeo: LoopbackNuxeo) -> [Int] {
        nuxeo.server.requests().filter { $0.path.contains("@children") }.compactMap { request in
            URLComponents(string: "http://x/?" + (request.query ?? ""))?.queryItems?
                .first { $0.name == "currentPageIndex" }?.value.flatMap { Int($0) }
        }
    }

    /// Waits, blocking its thread (a decoder's), up to 120 s for the server to see the request for
    /// `page` of a listing; whether it did.
    static func waitForPage(_ page: Int, of nuxeo: LoopbackNuxeo) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(120))
        while ContinuousClock.now < deadline {
            if childrenPages(nuxeo).contains(page) { return true }
            usleep(2_000)
        }
        return false
    }

    /// Entities whose decoder of the first full page (5 files `f…`, count unknown) of a listing
    /// waits until the server has seen the request for `page` (``waitForPage(_:of:)``), once,
    /// recording in `waited` whether it did: a listing that decoded a page before asking for the
    /// next never lets it.
    static func holdingFirstPage(of nuxeo: LoopbackNuxeo, until page: Int, _ waited: NIOLockedValueBox<[Bool]>) -> NuxeoEntityRegistry {
        var registry = NuxeoEntityRegistry.standard
        registry.register(entityType: NuxeoDocumentList.entityType) { json in
            let list = try NuxeoDocumentList(nuxeoJSON: json)
            guard list.currentPageIndex == 0, list.entries.count == 5, list.knownResultsCount == nil,
                  list.entries.allSatisfy({ $0.title?.hasPrefix("f") == true }), waited.withLockedValue({ $0.isEmpty })
            else { return .documents(list) }
            waited.withLockedValue { $0.append(waitForPage(page, of: nuxeo)) }
            return .documents(list)
        }
        return registry
    }

    /// Uploads `count` files `f0.txt`, `f1.txt`, … into the root of `provider`.
    static func uploadFiles(_ count: Int, to provider: NuxeoProvider) async throws {
        for index in 0..<count {
            _ = try await provider.upload(DataSource(string: "\(index)"), to: .root, name: "f\(index).txt", options: UploadOptions())
        }
    }

    /// Every page of `folder` by cursor, one request after the other, as a serial loop reads them.
    static func serialListing(_ provider: NuxeoProvider, _ folder: ItemPath, pageSize: Int) async throws -> [String] {
        var names: [String] = []
        var request = PageRequest(limit: pageSize)
        while true {
            let page = try await provider.list(folder, page: request)
            names += page.items.map(\.name)
            guard let next = page.next else { return names }
            request.cursor = next
        }
    }

    @Test("listAll, with and without a page size, and forEachPage list every child once, in the server's order")
    func sameAsSerial() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let scratch = try await nuxeo.scratch(options: ["pageSize": "5"])
        try await Self.uploadFiles(23, to: scratch)
        let serial = try await Self.serialListing(scratch, .root, pageSize: 5)
        #expect(serial.count == 23 && Set(serial).count == 23)

        // No limit: every page inside one list call, fetched one ahead.
        nuxeo.server.resetRequests()
        #expect(try await scratch.listAll(.root).map(\.name) == serial)
        let inside = Self.childrenPages(nuxeo)
        // Two pages are on the wire at once: the server may see them in either order.
        #expect(Array(inside.sorted().prefix(5)) == [0, 1, 2, 3, 4], "\(inside)")
        // At most the page after the last one was asked for in vain.
        #expect(inside.count <= 6 && Set(inside).count == inside.count, "\(inside)")

        // A limit: page after page by cursor, the next predicted by pageRequest(after:in:previous:).
        nuxeo.server.resetRequests()
        #expect(try await scratch.listAll(.root, pageSize: 5).map(\.name) == serial)
        let byCursor = Self.childrenPages(nuxeo)
        #expect(Array(byCursor.sorted().prefix(5)) == [0, 1, 2, 3, 4], "\(byCursor)")
        #expect(byCursor.count <= 6 && Set(byCursor).count == byCursor.count, "\(byCursor)")

        var pages: [Int] = []
        try await scratch.forEachPage(of: .root, request: PageRequest(limit: 5, fields: [])) { page in pages.append(page.items.count) }
        #expect(pages == [5, 5, 5, 5, 3])
    }

    @Test("a listing of one page costs one @children request")
    func onePage() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let scratch = try await nuxeo.scratch(options: ["pageSize": "5"])
        try await Self.uploadFiles(3, to: scratch)
        nuxeo.server.resetRequests()
        #expect(try await scratch.listAll(.root).count == 3)
        #expect(Self.childrenPages(nuxeo) == [0])
        nuxeo.server.resetRequests()
        #expect(try await scratch.listAll(.root, pageSize: 5).count == 3)
        #expect(Self.childrenPages(nuxeo) == [0])
    }

    @Test("the provider predicts the next page number of a listing by cursor, and none past a known count")
    func prediction() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch()
        try await Self.uploadFiles(5, to: provider)
        let first = try await provider.list(.root, page: PageRequest(limit: 2))
        let cursor = try #require(first.next)
        let request = PageRequest(limit: 2, cursor: cursor)
        let predicted = provider.pageRequest(after: request, in: .root, previous: ItemPage(items: first.items, next: cursor, totalCount: 5))
        #expect(predicted?.limit == 2 && predicted?.cursor != nil && predicted?.cursor != cursor)
        // No count: no guess.
        #expect(provider.pageRequest(after: request, in: .root, previous: ItemPage(items: first.items, next: cursor)) == nil)
        // Pages of 2 with 4 results in all: the request for page 1 is the last one.
        #expect(provider.pageRequest(after: request, in: .root, previous: ItemPage(items: first.items, next: cursor, totalCount: 4)) == nil)
        // Another folder's cursor, or no limit: no prediction.
        #expect(provider.pageRequest(after: request, in: ItemPath("/elsewhere"), previous: first) == nil)
        #expect(provider.pageRequest(after: PageRequest(cursor: cursor), in: .root, previous: first) == nil)
    }

    @Test("without a limit, the next page is asked for as soon as a page arrives, before the page is decoded")
    func nextPageBeforeDecoding() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        // The decoder of the listing's first page waits (up to 60 s) until the server has seen the
        // request for the second: a listing that decoded a page before asking for the next never lets it.
        let waited = NIOLockedValueBox<[Bool]>([])
        let provider = try await nuxeo.scratch(options: ["pageSize": "5"], entities: Self.holdingFirstPage(of: nuxeo, until: 1, waited))
        try await Self.uploadFiles(12, to: provider)
        nuxeo.server.resetRequests()
        let names = try await provider.listAll(.root).map(\.name)
        #expect(waited.withLockedValue { $0 } == [true])
        #expect(names.count == 12 && Set(names) == Set((0..<12).map { "f\($0).txt" }))
        #expect(Self.childrenPages(nuxeo).sorted() == [0, 1, 2])
    }

    @Test("by cursor, the page after this one is asked for while this one is decoded when the server says it follows but not how many; the next call takes it over")
    func cursorPageAhead() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        // The decoder of page 0 waits (up to 60 s) until the server has seen the request for page 1:
        // a listing by cursor that asked for page 1 only when called for it never lets it.
        let waited = NIOLockedValueBox<[Bool]>([])
        let provider = try await nuxeo.scratch(options: ["pageSize": "5"], entities: Self.holdingFirstPage(of: nuxeo, until: 1, waited))
        try await Self.uploadFiles(12, to: provider)
        let expected = Set((0..<12).map { "f\($0).txt" })
        nuxeo.server.resetRequests()
        let names = try await Self.serialListing(provider, .root, pageSize: 5)
        #expect(waited.withLockedValue { $0 } == [true])
        #expect(names.count == 12 && Set(names) == expected)
        // Every page once, the one asked for ahead included, and none past the last (or page 1
        // asked for again where more than the 10 s a page fetched ahead is kept passed before
        // the call for it, on a machine loaded by the whole suite).
        #expect([[0, 1, 2], [0, 1, 1, 2]].contains(Self.childrenPages(nuxeo).sorted()), "\(Self.childrenPages(nuxeo))")
        #expect(provider.listingPrefetch.pending.isEmpty)

        // A caller that stops after the first page leaves one page asked for ahead, which a
        // listing of the same folder later takes over (within its age) rather than asking again.
        nuxeo.server.resetRequests()
        _ = try await provider.list(.root, page: PageRequest(limit: 5))
        let ahead = provider.listingPrefetch.pending
        #expect(ahead.map(\.page) == [1])
        #expect(try await Self.serialListing(provider, .root, pageSize: 5) == names)
        #expect([[0, 0, 1, 2], [0, 0, 1, 1, 2]].contains(Self.childrenPages(nuxeo).sorted()), "\(Self.childrenPages(nuxeo))")
    }

    @Test("by cursor, the folder is checked again while the page is asked for (one round trip per page, not two); a folder replaced since is listed anew")
    func cursorCheckOverlapsThePage() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        // Once armed, the decoder of the folder `box`'s own document (the check of the folder)
        // waits (up to 60 s) until the server has seen the request for page 1: a listing that
        // checked the folder before asking for the page never lets it.
        let armed = NIOLockedValueBox(false)
        let waited = NIOLockedValueBox<[Bool]>([])
        var registry = NuxeoEntityRegistry.standard
        registry.register(entityType: NuxeoDocument.entityType) { json in
            let document = try NuxeoDocument(nuxeoJSON: json)
            guard document.title == "box", armed.withLockedValue({ armed in defer { armed = false }; return armed }) else {
                return .document(document)
            }
            waited.withLockedValue { $0.append(Self.waitForPage(1, of: nuxeo)) }
            return .document(document)
        }
        let provider = try await nuxeo.scratch(options: ["pageSize": "5"], entities: registry)
        let box = ItemPath("/box")
        _ = try await provider.createFolder(named: "box", in: .root)
        for index in 0..<8 {
            _ = try await provider.upload(DataSource(string: "\(index)"), to: box, name: "a\(index).txt", options: UploadOptions())
        }
        let first = try await provider.list(box, page: PageRequest(limit: 5))
        let cursor = try #require(first.next)
        // Not the page asked for ahead (taken here, once it has arrived): this call asks for it itself.
        _ = await provider.listingPrefetch.take(try #require(provider.listingPrefetch.pending.first))
        nuxeo.server.resetRequests()
        armed.withLockedValue { $0 = true }
        let second = try await provider.list(box, page: PageRequest(limit: 5, cursor: cursor))
        #expect(waited.withLockedValue { $0 } == [true])
        #expect(Set((first.items + second.items).map(\.name)) == Set((0..<8).map { "a\($0).txt" }))
        #expect(second.next == nil)
        #expect(Self.childrenPages(nuxeo) == [1])

        // Replaced between two pages by another client (this provider still knows the old uid):
        // the cursor's page comes from the folder now at the path, not from the one it knew.
        let again = try await provider.list(box, page: PageRequest(limit: 5))
        let next = try #require(again.next)
        _ = await provider.listingPrefetch.take(try #require(provider.listingPrefetch.pending.first))
        let other = try await nuxeo.provider(root: provider.settings.rootPath)
        try await other.delete(box)
        _ = try await other.createFolder(named: "box", in: .root)
        for index in 0..<7 {
            _ = try await other.upload(DataSource(string: "\(index)"), to: box, name: "b\(index).txt", options: UploadOptions())
        }
        nuxeo.server.resetRequests()
        let replaced = try await provider.list(box, page: PageRequest(limit: 5, cursor: next))
        #expect(replaced.items.count == 2 && replaced.items.allSatisfy { $0.name.hasPrefix("b") }, "\(replaced.items.map(\.name))")
        // The page from the new folder, and the one asked for from the old folder (gone: 404)
        // unless the check came back before that request left.
        #expect([[1], [1, 1]].contains(Self.childrenPages(nuxeo)), "\(Self.childrenPages(nuxeo))")
    }

    @Test("an app's documents decoder that says more than the page's skim is followed: the listing goes on from the next page")
    func decoderSaysMore() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        // Page 0 of 3 files in pages of 5 is short (the skim says it is the last); the app's decoder says there is more.
        var registry = NuxeoEntityRegistry.standard
        registry.register(entityType: NuxeoDocumentList.entityType) { json in
            var list = try NuxeoDocumentList(nuxeoJSON: json)
            if list.currentPageIndex == 0, list.entries.count == 3 {
                list.pageSize = 3
                list.isNextPageAvailable = true
            }
            return .documents(list)
        }
        let provider = try await nuxeo.scratch(options: ["pageSize": "5"], entities: registry)
        try await Self.uploadFiles(3, to: provider)
        nuxeo.server.resetRequests()
        #expect(try await provider.listAll(.root).map(\.name).sorted() == ["f0.txt", "f1.txt", "f2.txt"])
        #expect(Self.childrenPages(nuxeo) == [0, 1])
    }
}

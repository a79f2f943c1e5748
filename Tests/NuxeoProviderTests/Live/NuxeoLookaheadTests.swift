import Foundation
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import Testing
import HTTPProviderKit

/// Listings fetched one page ahead (``PageLookahead``) give what a serial page loop gives.
@Suite("Nuxeo listings one page ahead on the loopback server")
struct NuxeoLookaheadTests {
    /// The `currentPageIndex` of every `@children` request the server saw, in order.
    static func childrenPages(_ nuxeo: LoopbackNuxeo) -> [Int] {
        nuxeo.server.requests().filter { $0.path.contains("@children") }.compactMap { request in
            URLComponents(string: "http://x/?" + (request.query ?? ""))?.queryItems?
                .first { $0.name == "currentPageIndex" }?.value.flatMap { Int($0) }
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
        for index in 0..<23 {
            _ = try await scratch.upload(DataSource(string: "\(index)"), to: .root, name: "f\(index).txt", options: UploadOptions())
        }
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
        for index in 0..<3 {
            _ = try await scratch.upload(DataSource(string: "\(index)"), to: .root, name: "f\(index).txt", options: UploadOptions())
        }
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
        for index in 0..<5 {
            _ = try await provider.upload(DataSource(string: "\(index)"), to: .root, name: "f\(index).txt", options: UploadOptions())
        }
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
        #expect(provider.pageRequest(after: request, in: try ItemPath("/elsewhere"), previous: first) == nil)
        #expect(provider.pageRequest(after: PageRequest(cursor: cursor), in: .root, previous: first) == nil)
    }
}

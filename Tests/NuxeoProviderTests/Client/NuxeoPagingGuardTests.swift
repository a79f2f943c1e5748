import Foundation
import NIOCore
import NuxeoProvider
import ProviderAPI
import Testing
import HTTPProviderKit

/// A Nuxeo server in memory that answers the root document, and `@children` pages from a closure
/// (0-based page index → the JSON of the `documents` entity).
private struct PagingNuxeoTransport: HTTPTransport {
    let page: @Sendable (Int) -> String

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let json: String
        if request.url.path.contains("@children") {
            let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let index = query.first { $0.name == "currentPageIndex" }?.value.flatMap { Int($0) } ?? 0
            json = page(index)
        } else {
            json = #"{"entity-type":"document","uid":"root-uid","path":"/ws","type":"Workspace","title":"ws","facets":["Folderish"]}"#
        }
        return TransportResponse(
            status: 200, headers: ["Content-Type": "application/json"], url: request.url, body: .bytes(ByteBuffer(string: json)))
    }
}

/// A `documents` page of `uids`, saying another page follows when `more`.
private func documents(_ uids: some Sequence<String>, pageSize: Int, index: Int, more: Bool) -> String {
    let entries = uids.map { #"{"entity-type":"document","uid":"\#($0)","path":"/ws/\#($0)","type":"File","title":"\#($0)"}"# }
    return #"{"entity-type":"documents","isPaginable":true,"resultsCount":-2,"pageSize":\#(pageSize),"currentPageIndex":\#(index),"#
        + #""numberOfPages":0,"isNextPageAvailable":\#(more),"entries":[\#(entries.joined(separator: ","))]}"#
}

@Suite("Nuxeo paging is bounded against a server that pages forever")
struct NuxeoPagingGuardTests {
    private static func provider(options: [String: String] = [:], page: @escaping @Sendable (Int) -> String) throws -> NuxeoProvider {
        var all = ["pageSize": "2"]
        all.merge(options) { _, new in new }
        return try NuxeoProvider(configuration: ProviderConfiguration(
            url: URL(string: "http://127.0.0.1:9/nuxeo/ws")!, credentials: .basic(username: "ann", password: "pw"),
            transport: PagingNuxeoTransport(page: page), options: all))
    }

    private static func expectInvalidResponse(_ words: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("no error; expected invalidResponse (\(words))")
        } catch let error as ProviderError {
            #expect(error.code == .invalidResponse && error.message?.contains(words) == true, "\(error)")
            #expect(error.message?.contains("the listing of /") == true, "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a listing of three pages goes through whole, with or without a page size")
    func normal() async throws {
        let provider = try Self.provider { index in
            documents((0..<2).map { "d\(index)-\($0)" }, pageSize: 2, index: index, more: index < 2)
        }
        #expect(try await provider.listAll(.root).count == 6)
        #expect(try await provider.listAll(.root, pageSize: 2).count == 6)
    }

    @Test("isNextPageAvailable forever on the same page is refused")
    func samePageForever() async throws {
        let provider = try Self.provider { index in documents(["a", "b"], pageSize: 2, index: index, more: true) }
        await Self.expectInvalidResponse("same entries") { _ = try await provider.listAll(.root) }
        await Self.expectInvalidResponse("same entries") { _ = try await provider.listAll(.root, pageSize: 2) }
    }

    @Test("isNextPageAvailable forever with endless new entries stops at maxPages, or at maxEntries")
    func endlessNewEntries() async throws {
        let pages = try Self.provider(options: ["maxPages": "30"]) { index in
            documents(["n\(index)-a", "n\(index)-b"], pageSize: 2, index: index, more: true)
        }
        await Self.expectInvalidResponse("30 pages") { _ = try await pages.listAll(.root) }
        await Self.expectInvalidResponse("30 pages") { _ = try await pages.listAll(.root, pageSize: 2) }
        let entries = try Self.provider(options: ["maxEntries": "41"]) { index in
            documents(["n\(index)-a", "n\(index)-b"], pageSize: 2, index: index, more: true)
        }
        await Self.expectInvalidResponse("41 entries") { _ = try await entries.listAll(.root) }
    }

    @Test("a page index near Int.max in a numbered page count does not overflow")
    func hugePageIndex() async throws {
        let provider = try Self.provider { _ in
            #"{"entity-type":"documents","isPaginable":true,"resultsCount":10,"pageSize":2,"currentPageIndex":9223372036854775807,"#
                + #""numberOfPages":9223372036854775807,"isNextPageAvailable":false,"entries":[{"entity-type":"document","uid":"x","path":"/ws/x","type":"File","title":"x"},"#
                + #"{"entity-type":"document","uid":"y","path":"/ws/y","type":"File","title":"y"}]}"#
        }
        // Nothing traps on the index; page 0 answered as the last of Int.max pages, with 2 of the
        // 10 results it counts, is not the whole folder (it once was, and a sync deleted 8).
        await Self.expectInvalidResponse("answered as page 9223372036854775807") { _ = try await provider.listAll(.root) }
        let counted = try Self.provider { _ in
            #"{"entity-type":"documents","isPaginable":true,"resultsCount":10,"pageSize":2,"currentPageIndex":0,"#
                + #""numberOfPages":9223372036854775807,"isNextPageAvailable":false,"entries":[{"entity-type":"document","uid":"x","path":"/ws/x","type":"File","title":"x"},"#
                + #"{"entity-type":"document","uid":"y","path":"/ws/y","type":"File","title":"y"}]}"#
        }
        // The same page for every index: page 1 comes back as page 0.
        await Self.expectInvalidResponse("page 1 answered as page 0") { _ = try await counted.listAll(.root) }
    }
}

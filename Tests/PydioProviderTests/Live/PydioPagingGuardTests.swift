import Foundation
import NIOCore
import ProviderAPI
import PydioProvider
import Testing
import HTTPProviderKit

/// Forwards to the real transport and rewrites the `ls` answers of a paginated folder, as a broken
/// or hostile Pydio server would send them.
private struct RewritingTransport: HTTPTransport {
    /// (requested page, answer text) → answer text to send instead.
    let rewrite: @Sendable (Int, String) -> String

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await AsyncHTTPClientTransport.shared.send(request)
        let url = request.url.absoluteString
        guard url.contains("get_action=ls"), url.contains("dir=") else { return response }
        let body = try await response.body.collect(upTo: 16 << 20)
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        // The page is the literal `%23N` after the folder, encoded again on the wire.
        var page = 1
        if let marker = url.range(of: "%2523") {
            page = Int(url[marker.upperBound...].prefix { $0.isNumber }) ?? 1
        }
        let rewritten = ByteBuffer(string: rewrite(page, text))
        return TransportResponse(status: response.status, headers: response.headers, url: response.url, body: .bytes(rewritten))
    }
}

@Suite("Pydio paging is bounded against a server that pages forever")
struct PydioPagingGuardTests {
    /// A loopback server paging above 4 entries, 3 a page, and a provider on a folder of 7 files
    /// whose listings go through `rewrite`.
    private static func provider(
        options: [String: String] = [:], rewrite: @escaping @Sendable (Int, String) -> String
    ) async throws -> (LoopbackPydio, PydioProvider) {
        let pydio = try await LoopbackPydio.start {
            $0.paginationThreshold = 4
            $0.pageSize = 3
        }
        let scratch = try await pydio.scratch()
        for index in 0..<7 {
            _ = try await scratch.upload(DataSource(string: "\(index)"), to: .root, name: "f\(index).txt", options: UploadOptions())
        }
        let folder = scratch.settings.rootPath.split(separator: "/").joined(separator: "/")
        let provider = try await PydioProvider.connect(
            pydio.configuration(folder: folder, options: options, transport: RewritingTransport(rewrite: rewrite)))
        return (pydio, provider)
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

    @Test("the untouched folder lists whole, in three pages, counted by its pagination")
    func untouched() async throws {
        let (pydio, provider) = try await Self.provider { _, text in text }
        defer { Task { await pydio.stop() } }
        #expect(try await provider.listAll(.root).count == 7)
        #expect(try await provider.listAll(.root, pageSize: 3).count == 7)
        #expect(try await provider.listing(.root).completeness == .counted)
        #expect(try await provider.listing(.root, pageSize: 3).completeness == .counted)
    }

    @Test("a pagination element that always says more pages follow (the last page again) is refused")
    func moreForever() async throws {
        let (pydio, provider) = try await Self.provider { _, text in text.replacingOccurrences(of: "total=\"3\"", with: "total=\"999999\"") }
        defer { Task { await pydio.stop() } }
        await Self.expectInvalidResponse("same entries") { _ = try await provider.listAll(.root) }
        await Self.expectInvalidResponse("same entries") { _ = try await provider.listAll(.root, pageSize: 3) }
    }

    @Test("a server that names the same page number again is refused")
    func samePageNumber() async throws {
        let (pydio, provider) = try await Self.provider { _, text in text.replacingOccurrences(of: "current=\"2\"", with: "current=\"1\"") }
        defer { Task { await pydio.stop() } }
        await Self.expectInvalidResponse("repeats a page cursor") { _ = try await provider.listAll(.root) }
    }

    @Test("a listing that ends before the count its pagination declares is refused, not taken as the whole folder")
    func endsBeforeItsCount() async throws {
        // The pagination says 2 pages where there are 3: the listing would end with 6 of the 7 files.
        let (pydio, provider) = try await Self.provider { _, text in text.replacingOccurrences(of: "total=\"3\"", with: "total=\"2\"") }
        defer { Task { await pydio.stop() } }
        await Self.expectInvalidResponse("declared 7") { _ = try await provider.listAll(.root) }
        await Self.expectInvalidResponse("declared 7") { _ = try await provider.listAll(.root, pageSize: 3) }
    }

    @Test("a count that claims more children than the pages send is refused")
    func countsMoreThanItSends() async throws {
        let (pydio, provider) = try await Self.provider { _, text in text.replacingOccurrences(of: "count=\"7\"", with: "count=\"9\"") }
        defer { Task { await pydio.stop() } }
        await Self.expectInvalidResponse("declared 9") { _ = try await provider.listAll(.root) }
        await Self.expectInvalidResponse("declared 9") { _ = try await provider.listAll(.root, pageSize: 3) }
    }

    @Test("endless new entries stop at maxPages")
    func endlessNewEntries() async throws {
        let (pydio, provider) = try await Self.provider(options: ["maxPages": "20"]) { page, text in
            text.replacingOccurrences(of: "total=\"3\"", with: "total=\"999999\"")
                .replacingOccurrences(of: "current=\"3\"", with: "current=\"\(page)\"")
                .replacingOccurrences(of: ".txt\"", with: "-\(page).txt\"")
        }
        defer { Task { await pydio.stop() } }
        await Self.expectInvalidResponse("20 pages") { _ = try await provider.listAll(.root) }
    }
}

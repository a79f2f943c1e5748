import Foundation
import ProviderAPI
import Testing
import WebDAVProvider

/// Listings long enough that their items are made on another core while the parse goes on
/// (batches of 256 entries): the same items, sorted, and the errors an entry raises in document
/// order, as when each entry was mapped the moment it was parsed.
@Suite("Large listings")
struct LargeListingTests {
    /// A `Depth: 1` answer for `/big/`: the folder itself (a file when `selfIsFile`), then one
    /// response per name (sizes from 1), in reverse name order; `href(i)` replaces the href of
    /// the child at index i; `cut` ends the body inside the response of that index.
    static func answer(
        count: Int, selfIsFile: Bool = false, href: (Int) -> String? = { _ in nil }, cut: Int? = nil
    ) -> ScriptedDAVServer.Answer {
        var body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:"><d:response><d:href>/big/</d:href><d:propstat><d:prop>
            <d:resourcetype>\(selfIsFile ? "" : "<d:collection/>")</d:resourcetype></d:prop>
            <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>

            """
        for index in (0..<count).reversed() {
            if index == cut {
                body += "<d:response><d:href>/big/cut-he"
                break
            }
            let name = String(format: "file-%05d.txt", index)
            body += """
                <d:response><d:href>\(href(index) ?? "/big/\(name)")</d:href><d:propstat><d:prop>
                <d:resourcetype/><d:getcontentlength>\(index + 1)</d:getcontentlength>
                <d:getlastmodified>Tue, 24 Nov 2026 18:00:00 GMT</d:getlastmodified></d:prop>
                <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>

                """
        }
        if cut == nil { body += "</d:multistatus>\n" }
        return ScriptedDAVServer.Answer(status: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], body: body)
    }

    static func server(_ answer: ScriptedDAVServer.Answer) -> ScriptedDAVServer {
        ScriptedDAVServer { method, path, _ in
            method == "PROPFIND" && path == "/big/" ? answer : ScriptedDAVServer.notFound
        }
    }

    @Test("every item of a 1,000-entry listing, sorted, with its size", arguments: [255, 256, 257, 1_000])
    func items(count: Int) async throws {
        let items = try await Self.server(Self.answer(count: count)).provider().listAll("/big")
        #expect(items.map(\.name) == (0..<count).map { String(format: "file-%05d.txt", $0) })
        #expect(items.map(\.size) == (0..<count).map { Int64($0 + 1) })
        #expect(items.allSatisfy { $0.kind == .file && $0.path.parent == "/big" })
    }

    @Test("an entry that is not a child: invalidResponse naming it, with the request and status 207", arguments: [0, 300, 999])
    func notAChild(index: Int) async throws {
        let server = Self.server(Self.answer(count: 1_000, href: { $0 == index ? "/elsewhere/x.txt" : nil }))
        let error = await #expect(throws: ProviderError.self) { _ = try await server.provider().listAll("/big") }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message?.contains("/elsewhere/x.txt") == true, "\(String(describing: error))")
        #expect(error?.httpStatus == 207)
        #expect(error?.request?.contains("PROPFIND") == true, "\(String(describing: error))")
    }

    /// Children are written from index 999 down and the body ends inside the response of 400: the
    /// stray entry is in the first batch (900), the last full one (500), or the entries after the
    /// last full batch, which are mapped only once the parse is over (450).
    @Test("an entry that is not a child, then a body cut short: the entry's error, which came first", arguments: [900, 500, 450])
    func notAChildBeforeCut(stray: Int) async throws {
        let server = Self.server(Self.answer(count: 1_000, href: { $0 == stray ? "/elsewhere/x.txt" : nil }, cut: 400))
        let error = await #expect(throws: ProviderError.self) { _ = try await server.provider().listAll("/big") }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message?.contains("/elsewhere/x.txt") == true, "\(String(describing: error))")

        // The same cut without the stray entry: the parse's own error.
        let cutOnly = Self.server(Self.answer(count: 1_000, cut: 400))
        let cutError = await #expect(throws: ProviderError.self) { _ = try await cutOnly.provider().listAll("/big") }
        #expect(cutError?.code == .invalidResponse)
        #expect(cutError?.message?.contains("/elsewhere") == false, "\(String(describing: cutError))")
    }

    @Test("the listed folder answering as a file, before 1,000 entries: invalidArgument")
    func selfIsFile() async throws {
        let server = Self.server(Self.answer(count: 1_000, selfIsFile: true))
        let error = await #expect(throws: ProviderError.self) { _ = try await server.provider().listAll("/big") }
        #expect(error?.code == .invalidArgument, "\(String(describing: error))")
    }

    @Test("children answered with an error status are left out, wherever they fall in the batches")
    func failedChildren() async throws {
        var answer = Self.answer(count: 1_000)
        // Entries 10, 500 and 999 answer 404 at the response level.
        for index in [10, 500, 999] {
            let name = String(format: "file-%05d.txt", index)
            let start = try #require(answer.body.range(of: "<d:response><d:href>/big/\(name)</d:href>"))
            let end = try #require(answer.body.range(of: "</d:response>", range: start.upperBound..<answer.body.endIndex))
            answer.body.replaceSubrange(
                start.lowerBound..<end.upperBound,
                with: "<d:response><d:href>/big/\(name)</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>")
        }
        let items = try await Self.server(answer).provider().listAll("/big")
        #expect(items.count == 997)
        #expect(!items.contains { ["file-00010.txt", "file-00500.txt", "file-00999.txt"].contains($0.name) })
    }
}

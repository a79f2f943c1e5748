import Foundation
import ProviderAPI
import PydioProvider
import PydioTestServer
import Testing
import HTTPProviderKit

/// Listings fetched one page ahead (``PageLookahead``) give what a serial page loop gives.
@Suite("Pydio listings one page ahead on the loopback server")
struct PydioLookaheadTests {
    /// The `ls` page numbers the server was asked for (the `%23<n>` marker; 1 without one), in order.
    static func lsPages(_ pydio: LoopbackPydio) -> [Int] {
        pydio.server.requests().compactMap(\.query).filter { $0.contains("get_action=ls") && $0.contains("dir=") }.map { query in
            guard let marker = query.range(of: "%2523") else { return 1 }
            return Int(query[marker.upperBound...].prefix { $0.isNumber }) ?? -1
        }
    }

    @Test("listAll, with and without a limit, and forEachPage list every child once, with no request past the last page")
    func sameAsSerial() async throws {
        let pydio = try await LoopbackPydio.start { configuration in
            configuration.paginationThreshold = 10
            configuration.pageSize = 7
        }
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch()
        for index in 0..<30 {
            pydio.server.seedFile(
                workspace: "1", path: provider.settings.rootPath + String(format: "/f%03d.txt", index), contents: Data("\(index)".utf8))
        }
        // Serial: one page after the other by cursor.
        var serial: [String] = []
        var request = PageRequest(limit: 7)
        while true {
            let page = try await provider.list(.root, page: request)
            serial += page.items.map(\.name)
            guard let next = page.next else { break }
            request.cursor = next
        }
        #expect(serial.count == 30 && Set(serial).count == 30)

        pydio.server.resetRequests()
        #expect(try await provider.listAll(.root).map(\.name) == serial)
        // Two pages are on the wire at once: the server may see them in either order.
        #expect(Self.lsPages(pydio).sorted() == [1, 2, 3, 4, 5], "\(Self.lsPages(pydio))")

        pydio.server.resetRequests()
        #expect(try await provider.listAll(.root, pageSize: 7).map(\.name) == serial)
        #expect(Self.lsPages(pydio).sorted() == [1, 2, 3, 4, 5], "\(Self.lsPages(pydio))")

        var pages: [Int] = []
        try await provider.forEachPage(of: .root, request: PageRequest(limit: 7, fields: [])) { page in pages.append(page.items.count) }
        #expect(pages == [7, 7, 7, 7, 2])
    }
}

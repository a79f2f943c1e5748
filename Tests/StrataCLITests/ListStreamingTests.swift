import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import StrataTestSupport
import Testing

@testable import StrataCLI

/// A provider whose pages come from a closure (cursor = page number) and that counts the pages asked.
private struct PagedProvider: StubProvider {
    let pages: @Sendable (Int) -> ItemPage
    let asked = NIOLockedValueBox(0)
    var capabilities: Capabilities { Capabilities(features: [.paging]) }
    var account: ProviderAccount { ProviderAccount(kind: "paged", server: "memory") }
    var pageLimits: PageLimits { PageLimits(maxPages: 1000) }

    func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        asked.withLockedValue { $0 += 1 }
        return pages(page.cursor.flatMap { Int($0.rawValue) } ?? 0)
    }
}

private func files(_ range: Range<Int>) -> [Item] {
    range.map { Item(path: try! ItemPath("/f\($0)"), kind: .file, size: Int64($0)) }
}

@Suite("strata ls streams pages")
struct ListStreamingTests {
    @Test("each page is printed as it comes, in the server's order")
    func streams() async throws {
        let provider = PagedProvider(pages: { index in ItemPage(items: files(index * 3..<index * 3 + 3), next: index < 3 ? PageCursor(String(index + 1)) : nil) })
        let lines = NIOLockedValueBox<[String]>([])
        var output = Output.ItemStream(json: false)
        output.write = { data in lines.withLockedValue { $0 += String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init) } }
        try await ListCommand.stream(.root, from: provider, pageSize: 3, fields: [], into: &output)
        output.finish()
        let names = lines.withLockedValue { $0 }.compactMap { $0.split(separator: " ").last.map(String.init) }
        #expect(names == (0..<12).map { "f\($0)" })
        #expect(provider.asked.withLockedValue { $0 } == 4)
    }

    @Test("a server that sends the same page forever is stopped after printing what was new, and the JSON array is left open")
    func stopsOnRepeat() async throws {
        let provider = PagedProvider(pages: { index in ItemPage(items: files(0..<3), next: PageCursor(String(index + 1))) })
        let captured = NIOLockedValueBox(Data())
        var output = Output.ItemStream(json: true)
        output.write = { data in captured.withLockedValue { $0.append(data) } }
        do {
            try await ListCommand.stream(.root, from: provider, pageSize: 3, fields: .all, into: &output)
            Issue.record("no error")
        } catch let error as ProviderError {
            #expect(error.code == .invalidResponse, "\(error)")
        }
        #expect(provider.asked.withLockedValue { $0 } == 2)
        #expect(output.count == 3)
        // Unterminated: no JSON reader takes it for a whole listing.
        #expect((try? JSONSerialization.jsonObject(with: captured.withLockedValue { $0 })) == nil)
    }
}

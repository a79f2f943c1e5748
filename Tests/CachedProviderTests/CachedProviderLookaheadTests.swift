import Foundation
import ProviderAPI
import SharedCache
import StrataTestSupport
import Testing

/// Counts the `list` calls of a provider that run at once.
private actor InFlight {
    private(set) var current = 0
    private(set) var most = 0
    private(set) var cursors: [String?] = []

    func begin(_ cursor: String?) {
        current += 1
        most = max(most, current)
        cursors.append(cursor)
    }

    func end() { current -= 1 }
}

/// `count` pages of 10 files whose cursor is the page number, that can tell the next page (or not).
private struct NumberedPages: StubProvider {
    let count: Int
    let predicts: Bool
    let log: InFlight
    var capabilities: Capabilities { Capabilities(features: [.paging]) }
    var account: ProviderAccount { ProviderAccount(kind: "numbered", server: "memory") }

    func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        let number = page.cursor.flatMap { Int($0.rawValue) } ?? 0
        await log.begin(page.cursor?.rawValue)
        try? await Task.sleep(for: .milliseconds(10))
        await log.end()
        let items = try (0..<10).map { Item(path: try folder.appending("f\(number * 10 + $0)"), kind: .file, size: 1) }
        return ItemPage(items: number < count ? items : [], next: number + 1 < count ? PageCursor(String(number + 1)) : nil)
    }

    func pageRequest(after request: PageRequest, in folder: ItemPath, previous: ItemPage) -> PageRequest? {
        guard predicts, let number = request.cursor.flatMap({ Int($0.rawValue) }) else { return nil }
        var next = request
        next.cursor = PageCursor(String(number + 1))
        return next
    }
}

@Suite("CachedProvider passes the base provider's page predictions on")
struct CachedProviderLookaheadTests {
    @Test("pages by cursor through the cache are fetched one ahead when the base predicts them, serially when not")
    func oneAheadThroughTheCache() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cached-lookahead-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try CacheStore(directory: directory)
        for predicts in [true, false] {
            let log = InFlight()
            let base = NumberedPages(count: 6, predicts: predicts, log: log)
            let cached = CachedProvider(wrapping: base, store: store, policy: .networkFirst)
            let request = PageRequest(limit: 10, cursor: PageCursor("2"))
            let previous = ItemPage(items: [], next: PageCursor("2"))
            #expect(cached.pageRequest(after: request, in: "/big", previous: previous)
                == base.pageRequest(after: request, in: "/big", previous: previous))
            let names = try await cached.listAll("/big", pageSize: 10).map(\.name)
            #expect(names == (0..<60).map { "f\($0)" })
            #expect(await log.most == (predicts ? 2 : 1))
            // Every page once, none fetched twice; a prediction may ask for the page past the end.
            let cursors = await log.cursors
            #expect(cursors.count == Set(cursors).count, "\(cursors)")
            let expected: Set<String?> = Set([nil] + (1..<6).map { String($0) })
            #expect(Set(cursors) == expected || (predicts && Set(cursors) == expected.union(["6"])), "\(cursors)")
        }
    }
}

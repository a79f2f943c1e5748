import Foundation
import ProviderAPI
import SharedCache
import StrataTestSupport
import Testing

@Suite("CachedProvider passes the base provider's page predictions on")
struct CachedProviderLookaheadTests {
    @Test("pages by cursor through the cache are fetched one ahead when the base predicts them, serially when not")
    func oneAheadThroughTheCache() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cached-lookahead-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try CacheStore(directory: directory)
        for predicts in [true, false] {
            let log = FetchLog()
            let base = PredictingProvider(count: 6, predicts: predicts, log: log)
            let cached = CachedProvider(wrapping: base, store: store, policy: .networkFirst)
            let request = PageRequest(limit: 10, cursor: PageCursor("2"))
            let previous = ItemPage(items: [], next: PageCursor("2"))
            #expect(cached.pageRequest(after: request, in: "/big", previous: previous)
                == base.pageRequest(after: request, in: "/big", previous: previous))
            let names = try await cached.listAll("/big", pageSize: 10).map(\.name)
            #expect(names == (0..<60).map { "f\($0)" })
            #expect(await log.mostInFlight == (predicts ? 2 : 1))
            // Every page once, none fetched twice; a prediction may ask for the page past the end.
            let pages = await log.requested
            #expect(pages.count == Set(pages).count, "\(pages)")
            #expect(Set(pages) == Set(0..<6) || (predicts && Set(pages) == Set(0...6)), "\(pages)")
        }
    }
}

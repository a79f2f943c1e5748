import Foundation
import ProviderAPI
import Testing
@testable import SharedCache

@Suite("CacheStore live queries")
struct CacheObservationTests {
    @Test("a listing's change sets: initial, inserted, updated, removed")
    func listingChanges() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        try await store.saveListing([Fixtures.file("/f/a"), Fixtures.file("/f/b")], of: "/f", account: Fixtures.alice, complete: true)
        var changes = store.observeListing(of: "/f", account: Fixtures.alice).makeAsyncIterator()

        let first = try #require(try await changes.next())
        #expect(first.items.map(\.name) == ["a", "b"])
        #expect(first.inserted.map(\.name) == ["a", "b"])

        try await store.saveItem(Fixtures.file("/f/c"), account: Fixtures.alice)
        let second = try #require(try await changes.next())
        #expect(second.inserted.map(\.name) == ["c"])
        #expect(second.items.map(\.name) == ["a", "b", "c"])
        #expect(second.removed.isEmpty && second.updated.isEmpty)

        try await store.saveItem(Fixtures.file("/elsewhere/x"), account: Fixtures.alice)  // not in the folder: no change set
        try await store.saveItem(Fixtures.file("/f/a", size: 99), account: Fixtures.alice)
        let third = try #require(try await changes.next())
        #expect(third.updated.map(\.name) == ["a"])
        #expect(third.updated.first?.size == 99)
        #expect(third.inserted.isEmpty && third.removed.isEmpty)

        try await store.saveListing([Fixtures.file("/f/a", size: 99)], of: "/f", account: Fixtures.alice, complete: true)
        let fourth = try #require(try await changes.next())
        #expect(fourth.removed.map(\.name) == ["b", "c"])
        #expect(fourth.items.map(\.name) == ["a"])
    }

    @Test("a query's change sets")
    func queryChanges() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        try await store.saveItem(Fixtures.file("/docs/report.pdf", mime: "application/pdf"), account: Fixtures.alice)
        var changes = store.observe(.nameContains("report"), under: "/docs", account: Fixtures.alice).makeAsyncIterator()
        #expect(try await changes.next()?.items.map(\.name) == ["report.pdf"])
        try await store.saveItem(Fixtures.file("/docs/sub/Report 2.txt"), account: Fixtures.alice)
        let added = try #require(try await changes.next())
        #expect(added.inserted.map(\.name) == ["Report 2.txt"])
        #expect(added.items.map(\.name) == ["Report 2.txt", "report.pdf"])
        try await store.removeItem(at: "/docs/report.pdf", account: Fixtures.alice)
        let removed = try #require(try await changes.next())
        #expect(removed.removed.map(\.name) == ["report.pdf"])
        #expect(removed.items.map(\.name) == ["Report 2.txt"])
    }

    @Test("cancelling the observing task ends the stream")
    func cancellation() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let stream = store.observeListing(of: .root, account: Fixtures.alice)
        let (first, received) = AsyncStream<Void>.makeStream()
        let task = Task {
            var count = 0
            for try await _ in stream {
                count += 1
                received.yield()
            }
            return count
        }
        for await _ in first { break }
        task.cancel()
        #expect(try await task.value == 1)
    }

    @Test("another process's changes reach a live listing")
    func otherProcess() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let cache = dir.url.appendingPathComponent("cache")
        let store = try CacheStore(directory: cache)
        let owner = ProviderAccount(kind: "torture", server: "https://torture.example", user: "obs")
        var changes = store.observeListing(of: "/p-obs", account: owner).makeAsyncIterator()
        #expect(try await changes.next()?.items == [])
        let child = try TortureProcess(["write-items", cache.path, "obs", "60"], log: dir.url.appendingPathComponent("obs.log"))
        #expect(await child.wait() == 0)
        var seen = 0
        var inserted = 0
        while seen < 60, let change = try await changes.next() {
            seen = change.items.count
            inserted += change.inserted.count
        }
        #expect(seen == 60)
        #expect(inserted == 60)
    }
}

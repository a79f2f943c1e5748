import Foundation
import ProviderAPI
import Testing
@testable import SharedCache

@Suite("CacheStore items and listings")
struct CacheStoreItemTests {
    @Test("an item round-trips exactly, with its fetch date, keyed by account")
    func itemRoundTrip() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let item = Fixtures.file("/docs/a.txt", etag: "\"e1\"", modified: Date(timeIntervalSinceReferenceDate: 123.456789))
        let fetched = Date(timeIntervalSinceReferenceDate: 700_000_000.123456)
        try await store.saveItem(item, account: Fixtures.alice, fetchedAt: fetched)
        #expect(try await store.item(at: "/docs/a.txt", account: Fixtures.alice) == CachedItem(item: item, fetchedAt: fetched))
        #expect(try await store.item(at: "/docs/a.txt", account: Fixtures.bob) == nil)
        #expect(try await store.item(at: "/docs/a.txt", account: Fixtures.nuxeo) == nil)
        var changed = item
        changed.etag = "\"e2\""
        try await store.saveItem(changed, account: Fixtures.alice)
        #expect(try await store.item(at: "/docs/a.txt", account: Fixtures.alice)?.item.etag == "\"e2\"")
        #expect(try await store.stats().items == 1)
    }

    @Test("NFC and NFD spellings of one name are different rows")
    func normalFormsStayApart() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let nfc = "/caf\u{E9}"
        let nfd = "/cafe\u{301}"
        try await store.saveItem(Fixtures.file(nfc, size: 1), account: Fixtures.alice)
        try await store.saveItem(Fixtures.file(nfd, size: 2), account: Fixtures.alice)
        #expect(try await store.stats().items == 2)
        #expect(try await store.item(at: ItemPath(nfc), account: Fixtures.alice)?.item.size == 1)
        #expect(try await store.item(at: ItemPath(nfd), account: Fixtures.alice)?.item.size == 2)
        let listed = try await store.cachedChildren(of: .root, account: Fixtures.alice)
        #expect(listed.map { Array($0.name.utf8) } .sorted { $0.lexicographicallyPrecedes($1) }.count == 2)
        try await store.saveListing([Fixtures.file(nfc, size: 1)], of: .root, account: Fixtures.alice, complete: true)
        let after = try await store.cachedChildren(of: .root, account: Fixtures.alice)
        #expect(after.count == 1)
        #expect(after.first.map { Array($0.path.storageKey.utf8) } == Array(nfc.utf8))
    }

    @Test("a complete listing replaces the children and drops what went, with its subtree")
    func completeListing() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let when = Date(timeIntervalSinceReferenceDate: 1000)
        try await store.saveListing(
            [Fixtures.file("/d/b"), Fixtures.folder("/d/a"), Fixtures.file("/d/c")], of: "/d", account: Fixtures.alice, complete: true,
            fetchedAt: when, changeToken: "tok1")
        try await store.saveListing([Fixtures.file("/d/a/deep")], of: "/d/a", account: Fixtures.alice, complete: true)
        let listing = try #require(try await store.listing(of: "/d", account: Fixtures.alice))
        #expect(listing.items.map(\.name) == ["a", "b", "c"])
        #expect(listing.isComplete)
        #expect(listing.fetchedAt == when)
        #expect(listing.changeToken == "tok1")
        #expect(try await store.listing(of: "/d", account: Fixtures.bob) == nil)
        #expect(try await store.listing(of: "/other", account: Fixtures.alice) == nil)

        // a partial listing adds without removing
        try await store.saveListing([Fixtures.file("/d/z")], of: "/d", account: Fixtures.alice, complete: false)
        #expect(try await store.listing(of: "/d", account: Fixtures.alice)?.items.map(\.name) == ["a", "b", "c", "z"])
        #expect(try await store.listing(of: "/d", account: Fixtures.alice)?.isComplete == false)

        // a complete listing without "a" drops a, its child and its listing
        try await store.saveListing([Fixtures.file("/d/b")], of: "/d", account: Fixtures.alice, complete: true)
        #expect(try await store.listing(of: "/d", account: Fixtures.alice)?.items.map(\.name) == ["b"])
        #expect(try await store.item(at: "/d/a/deep", account: Fixtures.alice) == nil)
        #expect(try await store.listing(of: "/d/a", account: Fixtures.alice) == nil)
    }

    @Test("remove takes the subtree and its listings, and only that")
    func removeSubtree() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        try await store.saveListing([Fixtures.folder("/a"), Fixtures.folder("/ab")], of: .root, account: Fixtures.alice, complete: true)
        try await store.saveListing([Fixtures.file("/a/x"), Fixtures.folder("/a/y")], of: "/a", account: Fixtures.alice, complete: true)
        try await store.saveListing([Fixtures.file("/a/y/z")], of: "/a/y", account: Fixtures.alice, complete: true)
        try await store.saveListing([Fixtures.file("/ab/q")], of: "/ab", account: Fixtures.alice, complete: true)
        try await store.saveItem(Fixtures.file("/a/x"), account: Fixtures.bob)
        try await store.removeItem(at: "/a", account: Fixtures.alice)
        #expect(try await store.item(at: "/a", account: Fixtures.alice) == nil)
        #expect(try await store.item(at: "/a/y/z", account: Fixtures.alice) == nil)
        #expect(try await store.listing(of: "/a/y", account: Fixtures.alice) == nil)
        #expect(try await store.item(at: "/ab/q", account: Fixtures.alice) != nil, "a sibling sharing the prefix stays")
        #expect(try await store.item(at: "/a/x", account: Fixtures.bob) != nil, "another account stays")
        #expect(try await store.listing(of: .root, account: Fixtures.alice)?.items.map(\.name) == ["ab"])
    }

    @Test("move rewrites the subtree's paths, ids and listings")
    func moveSubtree() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        try await store.saveListing([Fixtures.folder("/a")], of: .root, account: Fixtures.alice, complete: true)
        try await store.saveListing([Fixtures.file("/a/x"), Fixtures.folder("/a/y")], of: "/a", account: Fixtures.alice, complete: true)
        try await store.saveListing([Fixtures.file("/a/y/z")], of: "/a/y", account: Fixtures.alice, complete: true)
        var custom = Fixtures.file("/a/custom")
        custom.id = "server-id-7"
        try await store.saveItem(custom, account: Fixtures.alice)
        try await store.saveItem(Fixtures.file("/b/old"), account: Fixtures.alice)
        try await store.moveItem(from: "/a", to: "/b", account: Fixtures.alice)
        #expect(try await store.item(at: "/a/x", account: Fixtures.alice) == nil)
        #expect(try await store.item(at: "/b/old", account: Fixtures.alice) == nil, "the destination's old content is replaced")
        let moved = try #require(try await store.item(at: "/b/y/z", account: Fixtures.alice)?.item)
        #expect(moved.path == "/b/y/z")
        #expect(moved.id == "/b/y/z")
        #expect(try await store.item(at: "/b/custom", account: Fixtures.alice)?.item.id == "server-id-7")
        #expect(try await store.listing(of: "/b/y", account: Fixtures.alice)?.items.map(\.name) == ["z"])
        #expect(try await store.listing(of: "/b", account: Fixtures.alice)?.items.map(\.name) == ["custom", "x", "y"])
        #expect(try await store.listing(of: .root, account: Fixtures.alice)?.items.map(\.name) == ["b"])
        await #expect(throws: ProviderError.self) { try await store.moveItem(from: "/b", to: "/b/y/in", account: Fixtures.alice) }
    }

    @Test("clear by account, stats, and reopening keeps everything")
    func clearAndStats() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        do {
            let store = try CacheStore(directory: dir.url)
            try await store.saveListing([Fixtures.file("/x"), Fixtures.file("/y")], of: .root, account: Fixtures.alice, complete: true)
            try await store.saveListing([Fixtures.file("/x")], of: .root, account: Fixtures.nuxeo, complete: true)
            #expect(try await store.stats() == CacheStats(items: 3, listings: 2, blobs: 0, blobBytes: 0, accounts: 2))
        }
        let store = try CacheStore(directory: dir.url)
        #expect(try await store.stats().items == 3)
        try await store.clear(account: Fixtures.alice)
        #expect(try await store.stats() == CacheStats(items: 1, listings: 1, blobs: 0, blobBytes: 0, accounts: 1))
        try await store.clear()
        #expect(try await store.stats() == CacheStats(items: 0, listings: 0, blobs: 0, blobBytes: 0, accounts: 0))
    }
}

import Foundation
import ProviderAPI
import ProviderConformance
import SharedCache
import Testing
import HTTPProviderKit
import ProviderTesting

/// A reference in-memory server behind a fault-injecting transport, a provider over it, and a cache in front.
private struct Rig {
    let server = InMemoryServer()
    let faults: FaultInjectingTransport
    let base: InMemoryProvider
    let store: CacheStore
    let directory: URL

    init(capabilities: Capabilities = InMemoryProvider.fullCapabilities) throws {
        faults = FaultInjectingTransport(server)
        base = InMemoryProvider(transport: faults, capabilities: capabilities)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cached-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try CacheStore(directory: directory)
    }

    func cached(_ policy: CachePolicy = .networkFirst) -> CachedProvider {
        CachedProvider(wrapping: base, store: store, policy: policy)
    }

    func cutNetwork() { faults.inject(count: Int.max) { _ in .connectionFailure } }

    var requestCount: Int { faults.requests.count }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

@Suite("CachedProvider policies over the reference provider")
struct CachedProviderTests {
    @Test("network first: a network failure is answered from the cache, marked stale; nothing cached is the original error")
    func networkFirst() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        let cached = rig.cached(CachePolicy(.networkFirst, maxAge: .seconds(0)))
        let file = try await cached.upload(DataSource(string: "abc"), to: .root, name: "a.txt", options: UploadOptions())
        _ = try await cached.listAll(.root)
        #expect(try await cached.item(at: file.path).properties[CacheMarks.stale] == nil)
        rig.cutNetwork()
        let stale = try await cached.item(at: file.path)
        #expect(stale.size == 3)
        #expect(stale.properties[CacheMarks.stale] == "true")
        #expect(try await cached.listAll(.root).map(\.name) == ["a.txt"])
        let error = await #expect(throws: ProviderError.self) { _ = try await cached.item(at: "/never.txt") }
        #expect(error?.code == .network)
    }

    @Test("cache first answers fresh entries without a request; cache only never sends one")
    func cacheFirstAndOnly() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        let online = rig.cached()
        let file = try await online.upload(DataSource(string: "abc"), to: .root, name: "a.txt", options: UploadOptions())
        _ = try await online.listAll(.root)
        let before = rig.requestCount
        let first = rig.cached(CachePolicy(.cacheFirst, maxAge: .seconds(600)))
        #expect(try await first.item(at: file.path).size == 3)
        #expect(try await first.listAll(.root).count == 1)
        #expect(rig.requestCount == before)
        let only = rig.cached(.cacheOnly)
        #expect(try await only.item(at: file.path).size == 3)
        let error = await #expect(throws: ProviderError.self) {
            _ = try await only.upload(DataSource(string: "x"), to: .root, name: "b.txt", options: UploadOptions())
        }
        #expect(error?.code == .network)
        await #expect(throws: ProviderError.self) { _ = try await only.list("/other", page: .first) }
        #expect(rig.requestCount == before)
        let expired = rig.cached(CachePolicy(.cacheFirst, maxAge: .seconds(0)))
        _ = try await expired.item(at: file.path)
        #expect(rig.requestCount > before)
    }

    @Test("a listing says what it knows: read from the server it is complete, answered from the cache it is cached (no ground for a deletion)")
    func listingCompleteness() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        let online = rig.cached()
        _ = try await online.upload(DataSource(string: "abc"), to: .root, name: "a.txt", options: UploadOptions())
        #expect(try await online.listing(.root).completeness.isComplete)
        let only = rig.cached(.cacheOnly)
        let kept = try await only.listing(.root)
        #expect(kept.items.map(\.name) == ["a.txt"])
        #expect(kept.completeness == .cached)
        #expect(try await rig.cached(CachePolicy(.cacheFirst, maxAge: .seconds(600))).listing(.root).completeness == .cached)
        rig.cutNetwork()
        #expect(try await online.listing(.root).completeness == .cached)
    }

    @Test("stale-while-revalidate answers at once and refreshes in the background")
    func staleWhileRevalidate() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        let online = rig.cached()
        _ = try await online.upload(DataSource(string: "abc"), to: .root, name: "a.txt", options: UploadOptions())
        _ = try await online.item(at: "/a.txt")
        _ = try await rig.base.upload(DataSource(string: "abcdef"), to: .root, name: "a.txt", options: UploadOptions(conflict: .overwrite))
        let swr = rig.cached(CachePolicy(.staleWhileRevalidate, maxAge: .seconds(0)))
        let answered = try await swr.item(at: "/a.txt")
        #expect(answered.size == 3)
        #expect(answered.properties[CacheMarks.stale] == "true")
        // The refresh runs in the background: wait for the cache to hold it, with a deadline far
        // above what it takes on a loaded machine (it was 2 s).
        var refreshed: Int64?
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            refreshed = try await rig.store.item(at: "/a.txt", account: rig.base.account)?.item.size
            if refreshed == 6 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(refreshed == 6)
    }

    @Test("writes keep the cache true: upload, folder, move, copy, delete")
    func writes() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        let cached = rig.cached()
        let account = rig.base.account
        _ = try await cached.createFolder(named: "dir", in: .root)
        let file = try await cached.upload(DataSource(string: "abc"), to: "/dir", name: "a.txt", options: UploadOptions())
        #expect(try await rig.store.item(at: file.path, account: account) != nil)
        _ = try await cached.move("/dir/a.txt", to: "/dir/b.txt", options: TransferOptions())
        #expect(try await rig.store.item(at: "/dir/a.txt", account: account) == nil)
        #expect(try await rig.store.item(at: "/dir/b.txt", account: account) != nil)
        _ = try await cached.copy("/dir/b.txt", to: "/c.txt", options: TransferOptions())
        #expect(try await rig.store.item(at: "/c.txt", account: account) != nil)
        try await cached.delete("/dir")
        #expect(try await rig.store.item(at: "/dir/b.txt", account: account) == nil)
        #expect(try await rig.store.item(at: "/dir", account: account) == nil)
    }

    @Test("a second download of the same content comes from the blob store, and offline too")
    func blobs() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        let cached = rig.cached()
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let file = try await cached.upload(DataSource(bytes: bytes), to: .root, name: "b.bin", options: UploadOptions())
        let first = MemorySink()
        _ = try await cached.download(file.path, to: first, options: DownloadOptions())
        #expect(await first.bytes == bytes)
        #expect(await rig.store.blobs.count == 1)
        let contentGets = { rig.faults.requests.filter { $0.hasPrefix("GET") }.count }
        let before = contentGets()
        let second = MemorySink()
        _ = try await cached.download(file.path, to: second, options: DownloadOptions())
        #expect(await second.bytes == bytes)
        #expect(contentGets() == before, "the content was fetched again")
        rig.cutNetwork()
        let offline = MemorySink()
        _ = try await cached.download(file.path, to: offline, options: DownloadOptions())
        #expect(await offline.bytes == bytes)
    }

    @Test("search over cached metadata for a provider without search")
    func searchWithoutServerSearch() async throws {
        let rig = try Rig(capabilities: InMemoryProvider.basicCapabilities)
        defer { rig.remove() }
        let cached = rig.cached()
        #expect(cached.capabilities.supports(.search))
        _ = try await cached.createFolder(named: "docs", in: .root)
        _ = try await cached.upload(DataSource(string: "x"), to: "/docs", name: "quarterly report.txt", options: UploadOptions())
        _ = try await cached.upload(DataSource(string: "y"), to: "/docs", name: "notes.txt", options: UploadOptions())
        let found = try await cached.search(.nameContains("REPORT"), page: PageRequest())
        #expect(found.items.map(\.path) == ["/docs/quarterly report.txt"])
    }
}

@Suite("CachedProvider and change feeds")
struct CachedProviderChangeTests {
    @Test("refreshChanges applies only what changed: new, modified, moved and deleted items, without listing again")
    func refreshFromFeed() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        let cached = rig.cached()
        let account = rig.base.account
        _ = try await cached.createFolder(named: "dir", in: .root)
        _ = try await cached.upload(DataSource(string: "old"), to: "/dir", name: "keep.txt", options: UploadOptions())
        _ = try await cached.upload(DataSource(string: "bye"), to: "/dir", name: "gone.txt", options: UploadOptions())
        _ = try await cached.upload(DataSource(string: "mv"), to: "/dir", name: "from.txt", options: UploadOptions())
        _ = try await cached.listAll("/dir")
        #expect(try await cached.refreshChanges() == 0, "the first call only records where the feed stands")
        // Someone else changes the server.
        _ = try await rig.base.upload(DataSource(string: "new!"), to: "/dir", name: "new.txt", options: UploadOptions())
        _ = try await rig.base.upload(DataSource(string: "changed"), to: "/dir", name: "keep.txt", options: UploadOptions(conflict: .overwrite))
        try await rig.base.delete("/dir/gone.txt")
        _ = try await rig.base.move("/dir/from.txt", to: "/dir/to.txt", options: TransferOptions())
        let before = rig.faults.requests.count
        let applied = try #require(try await cached.refreshChanges())
        #expect(applied >= 4)
        let sent = Array(rig.faults.requests.dropFirst(before))
        #expect(sent.count == 1, "one request to the change feed, no listing or stat: \(sent)")
        let names = try await rig.store.cachedChildren(of: "/dir", account: account).map(\.name).sorted()
        #expect(names == ["keep.txt", "new.txt", "to.txt"])
        #expect(try await rig.store.item(at: "/dir/keep.txt", account: account)?.item.size == 7)
    }

    @Test("an unchanged folder etag answers a network-first listing from the cache with one small request")
    func folderETagShortCircuit() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        let cached = rig.cached()
        for name in ["a.txt", "b.txt", "c.txt"] {
            _ = try await cached.upload(DataSource(string: name), to: .root, name: name, options: UploadOptions())
        }
        _ = try await cached.listAll(.root)
        let before = rig.requestCount
        #expect(try await cached.listAll(.root).map(\.name) == ["a.txt", "b.txt", "c.txt"])
        #expect(rig.requestCount == before + 1)
        // another client's write gives the folder a new etag: listed again
        _ = try await rig.base.upload(DataSource(string: "d"), to: .root, name: "d.txt", options: UploadOptions())
        let afterWrite = rig.requestCount
        #expect(try await cached.listAll(.root).map(\.name) == ["a.txt", "b.txt", "c.txt", "d.txt"])
        #expect(rig.requestCount == afterWrite + 2)
    }

    @Test("refreshTree: an unchanged tree costs one request; a deep change lists only the folders on its way")
    func refreshTreeRecursive() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        try await Self.makeTree(rig.base)
        let cached = rig.cached()
        let first = try await cached.refreshTree()
        #expect(first.foldersListed == 6)
        let before = rig.requestCount
        #expect(try await cached.refreshTree() == TreeRefresh(foldersListed: 0, foldersUnchanged: 1, itemsChanged: 0))
        #expect(rig.requestCount == before + 1)
        _ = try await rig.base.upload(DataSource(string: "longer now"), to: "/x/y/z", name: "f.txt", options: UploadOptions(conflict: .overwrite))
        let beforeThird = rig.requestCount
        let third = try await cached.refreshTree()
        // root, x, y and z listed; p found unchanged from its etag in the root's listing
        #expect(third == TreeRefresh(foldersListed: 4, foldersUnchanged: 1, itemsChanged: 4))
        // the root's etag, then four listings: a child's etag comes from its parent's listing, not asked again
        #expect(rig.requestCount == beforeThird + 5)
        #expect(try await rig.store.item(at: "/x/y/z/f.txt", account: cached.account)?.item.size == 10)
        let offline = rig.cached(.cacheOnly)
        #expect(try await offline.listAll("/p/q").map(\.name) == ["g.txt"])
    }

    @Test("refreshTree without recursive etags lists every folder but rewrites only what changed")
    func refreshTreePlain() async throws {
        var capabilities = InMemoryProvider.fullCapabilities
        capabilities.features.remove(.recursiveETags)
        let rig = try Rig(capabilities: capabilities)
        defer { rig.remove() }
        try await Self.makeTree(rig.base)
        let cached = rig.cached()
        #expect(try await cached.refreshTree() == TreeRefresh(foldersListed: 6, foldersUnchanged: 0, itemsChanged: 8))
        #expect(try await cached.refreshTree() == TreeRefresh(foldersListed: 6, foldersUnchanged: 0, itemsChanged: 0))
        _ = try await rig.base.upload(DataSource(string: "longer now"), to: "/x/y/z", name: "f.txt", options: UploadOptions(conflict: .overwrite))
        // the reference server moves the folder etags on the way anyway: 4 of the 8 rows change
        #expect(try await cached.refreshTree() == TreeRefresh(foldersListed: 6, foldersUnchanged: 0, itemsChanged: 4))
        #expect(try await cached.refreshTree("/x", maxDepth: 1) == TreeRefresh(foldersListed: 1, foldersUnchanged: 0, itemsChanged: 0))
    }

    @Test("refreshTree lists up to `concurrency` folders at once, and never more", arguments: [1, 4])
    func refreshTreeConcurrency(_ width: Int) async throws {
        var capabilities = InMemoryProvider.fullCapabilities
        capabilities.features.remove(.recursiveETags)
        let gauged = GaugedTransport(base: InMemoryServer())
        let base = InMemoryProvider(transport: gauged, capabilities: capabilities)
        for index in 0..<8 {
            let folder = try await base.createFolder(named: "f\(index)", in: .root)
            _ = try await base.upload(DataSource(string: "\(index)"), to: folder.path, name: "a.txt", options: UploadOptions())
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cached-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cached = CachedProvider(wrapping: base, store: try CacheStore(directory: directory))
        await gauged.gauge.reset()
        let report = try await cached.refreshTree(concurrency: width)
        #expect(report == TreeRefresh(foldersListed: 9, foldersUnchanged: 0, itemsChanged: 16))
        let peak = await gauged.gauge.peak
        #expect(peak <= width)
        #expect(width == 1 || peak > 1, "folders were listed one at a time with a limit of \(width)")
    }

    /// /x/y/z/f.txt, /x/e.txt, /p/q/g.txt: six folders with the root, eight items below it.
    static func makeTree(_ base: InMemoryProvider) async throws {
        for (name, parent) in [("x", "/"), ("y", "/x"), ("z", "/x/y"), ("p", "/"), ("q", "/p")] {
            _ = try await base.createFolder(named: name, in: try ItemPath(parent))
        }
        for (name, parent) in [("f.txt", "/x/y/z"), ("e.txt", "/x"), ("g.txt", "/p/q")] {
            _ = try await base.upload(DataSource(string: name), to: try ItemPath(parent), name: name, options: UploadOptions())
        }
    }

    @Test("without a feed there is nothing to follow")
    func noFeed() async throws {
        let rig = try Rig(capabilities: InMemoryProvider.basicCapabilities)
        defer { rig.remove() }
        #expect(try await rig.cached().refreshChanges() == nil)
    }
}

/// Counts requests in flight (each held a few milliseconds) on their way to `base`.
private struct GaugedTransport: HTTPTransport {
    actor Gauge {
        private(set) var running = 0
        private(set) var peak = 0
        func enter() {
            running += 1
            peak = max(peak, running)
        }
        func leave() { running -= 1 }
        func reset() { peak = running }
    }

    let base: any HTTPTransport
    let gauge = Gauge()

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        await gauge.enter()
        try? await Task.sleep(for: .milliseconds(3))
        do {
            let response = try await base.send(request)
            await gauge.leave()
            return response
        } catch {
            await gauge.leave()
            throw error
        }
    }
}

import Foundation
import HTTPProviderKit
import ProviderAPI
import ProviderConformance
import SharedCache
import Testing

/// Holds the item requests (`PROPFIND` at depth 0) of the reference provider until opened, and counts them.
private actor ItemGate {
    private(set) var itemRequests = 0
    private(set) var cancelledRequests = 0
    private var opened = false

    func open() { opened = true }

    /// Counts an item request, then waits for the gate to open; a cancelled wait throws.
    func pass() async throws {
        itemRequests += 1
        while !opened {
            do {
                try await Task.sleep(for: .milliseconds(2))
            } catch {
                cancelledRequests += 1
                throw error
            }
        }
    }
}

/// The reference server behind a transport whose item requests wait at an ``ItemGate``.
private struct GatedTransport: HTTPTransport {
    let base: any HTTPTransport
    let gate: ItemGate

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if request.method.rawValue == "PROPFIND", request.headers.first(name: "Depth") == "0" {
            try await gate.pass()
        }
        return try await base.send(request)
    }
}

/// A cache holding `/a.txt` at 3 bytes while the server has 6, and a stale-while-revalidate
/// provider whose refreshes wait at the gate.
private struct StaleRig {
    let gate = ItemGate()
    let store: CacheStore
    let directory: URL
    let online: InMemoryProvider
    let swr: CachedProvider

    init() async throws {
        let server = InMemoryServer()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("refresher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try CacheStore(directory: directory)
        online = InMemoryProvider(transport: server)
        let warm = CachedProvider(wrapping: online, store: store)
        _ = try await warm.upload(DataSource(string: "abc"), to: .root, name: "a.txt", options: UploadOptions())
        _ = try await warm.item(at: "/a.txt")
        _ = try await online.upload(DataSource(string: "abcdef"), to: .root, name: "a.txt", options: UploadOptions(conflict: .overwrite))
        let gated = InMemoryProvider(transport: GatedTransport(base: server, gate: gate))
        swr = CachedProvider(wrapping: gated, store: store, policy: CachePolicy(.staleWhileRevalidate, maxAge: .seconds(0)))
    }

    func cachedSize() async throws -> Int64? { try await store.item(at: "/a.txt", account: online.account)?.item.size }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

@Suite("CachedProvider's background refresher")
struct CacheRefresherTests {
    @Test("concurrent readers of one stale item start one refresh, and it can be awaited")
    func oneRefreshPerKey() async throws {
        let rig = try await StaleRig()
        defer { rig.remove() }
        let sizes = try await withThrowingTaskGroup(of: Int64?.self) { group in
            for _ in 0..<20 { group.addTask { try await rig.swr.item(at: "/a.txt").size } }
            return try await group.reduce(into: [Int64?]()) { $0.append($1) }
        }
        #expect(sizes == Array(repeating: 3, count: 20), "every reader is answered from the cache at once")
        #expect(rig.swr.refresher.runningKeys.count == 1)
        #expect(rig.swr.refresher.startedCount == 1)
        await rig.gate.open()
        await rig.swr.refresher.waitForAll()
        #expect(await rig.gate.itemRequests == 1, "one refresh asked the server once")
        #expect(rig.swr.refresher.runningKeys.isEmpty)
        #expect(try await rig.cachedSize() == 6)
        // Once it ended, a later stale read refreshes again.
        _ = try await rig.swr.item(at: "/a.txt")
        await rig.swr.refresher.waitForAll()
        #expect(rig.swr.refresher.startedCount == 2)
        #expect(await rig.gate.itemRequests == 2)
    }

    @Test("an item and a listing are refreshed side by side, each once")
    func keysAreSeparate() async throws {
        let rig = try await StaleRig()
        defer { rig.remove() }
        let warm = CachedProvider(wrapping: rig.online, store: rig.store)
        _ = try await warm.listAll(.root)
        for _ in 0..<5 {
            _ = try await rig.swr.item(at: "/a.txt")
            _ = try await rig.swr.list(.root, page: .first)
        }
        #expect(rig.swr.refresher.startedCount == 2)
        #expect(rig.swr.refresher.runningKeys.count <= 2)
        await rig.gate.open()
        await rig.swr.refresher.waitForAll()
        #expect(try await rig.cachedSize() == 6)
    }

    @Test("closing cancels a running refresh, leaves the cache as it was and starts no more")
    func closeCancels() async throws {
        let rig = try await StaleRig()
        defer { rig.remove() }
        _ = try await rig.swr.item(at: "/a.txt")
        while await rig.gate.itemRequests == 0 { try await Task.sleep(for: .milliseconds(2)) }
        await rig.swr.close()
        #expect(rig.swr.refresher.isClosed)
        #expect(rig.swr.refresher.runningKeys.isEmpty)
        #expect(await rig.gate.cancelledRequests >= 1, "the request under way was cancelled")
        #expect(try await rig.cachedSize() == 3)
        // A stale read still answers from the cache, but refreshes nothing.
        let asked = await rig.gate.itemRequests
        #expect(try await rig.swr.item(at: "/a.txt").size == 3)
        #expect(rig.swr.refresher.startedCount == 1)
        #expect(rig.swr.refresher.runningKeys.isEmpty)
        await rig.gate.open()
        await rig.swr.refresher.waitForAll()
        #expect(await rig.gate.itemRequests == asked)
        #expect(try await rig.cachedSize() == 3)
    }
}

import Foundation
import NIOCore
import ProviderAPI
import Testing
@testable import SharedCache

/// GRDB's async accessors give up when their task is cancelled; the cache's accesses must run to
/// the end as the synchronous ones did, or a cancelled caller would leave the cache behind the server.
@Suite("CacheStore in a cancelled task")
struct CacheCancellationTests {
    /// Runs `body` in a task that is already cancelled when `body` starts.
    private func inCancelledTask<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            #expect(Task.isCancelled)
            return try await body()
        }
        return try await task.value
    }

    @Test("metadata writes and reads of a cancelled task run to the end")
    func metadata() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let found = try await inCancelledTask {
            try await store.saveListing([Fixtures.file("/d/a.txt"), Fixtures.file("/d/b.txt")], of: "/d", account: Fixtures.alice, complete: true)
            try await store.moveItem(from: "/d/b.txt", to: "/d/c.txt", account: Fixtures.alice)
            try await store.removeItem(at: "/d/a.txt", account: Fixtures.alice)
            return try await store.listing(of: "/d", account: Fixtures.alice)?.items.map(\.name)
        }
        #expect(found == ["c.txt"])
        #expect(try await store.cachedChildren(of: "/d", account: Fixtures.alice).map(\.name) == ["c.txt"])
    }

    @Test("a blob finished by a cancelled task is committed, and its LRU use recorded")
    func blob() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let bytes = Fixtures.bytes(1000, seed: 7)
        let key = try await inCancelledTask { () -> String? in
            let sink = store.blobs.sink()
            try await sink.begin(offset: 0, expectedLength: 1000, validator: nil)
            try await sink.write(ByteBuffer(bytes: bytes))
            try await sink.finish()
            return sink.key
        }
        let stored = try #require(key)
        #expect(await store.blobs.has(stored))
        let lastUse = { @Sendable in
            try await store.pool.read { db in try Double.fetchOne(db, sql: "SELECT lastUsed FROM blob WHERE digest = ?", arguments: [stored]) }
        }
        let before = try #require(try await lastUse())
        let opened = try await inCancelledTask { await store.blobs.open(stored) }
        #expect(try Data(contentsOf: try #require(opened)) == Data(bytes))
        #expect(try #require(try await lastUse()) > before)
        #expect(try await store.verify().isEmpty)
    }

    @Test("a hierarchy load cancelled half-way leaves the previous tree and no nodes of its own")
    func hierarchy() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let hierarchy = store.hierarchy(named: "folders", account: Fixtures.alice)
        try await hierarchy.load(maxDepth: 1, fetch: { _ in [Fixtures.folder("/kept")] })
        // The loading task is cancelled once the first level is stored, so only the clean-up runs cancelled.
        let load = Task {
            try await hierarchy.load(maxDepth: 2, fetch: { folder in
                if folder.isRoot { return [Fixtures.folder("/new"), Fixtures.folder("/other")] }
                withUnsafeCurrentTask { $0?.cancel() }
                throw CancellationError()
            })
        }
        await #expect(throws: ProviderError.self) { try await load.value }
        #expect(try await hierarchy.roots().map(\.name) == ["kept"])
        let nodes = try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM hierarchy_node") }
        #expect(nodes == 1, "the cancelled load's nodes were removed")
    }
}

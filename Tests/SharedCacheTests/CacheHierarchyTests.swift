import Foundation
import ProviderAPI
import Testing
@testable import SharedCache

/// A fake server tree: every folder of `depth` levels has `width` folders and one file.
private struct FakeTree {
    let width: Int
    let depth: Int

    func children(of folder: ItemPath) throws -> [Item] {
        guard folder.segments.count < depth else { return [] }
        var items = try (0..<width).map { Item(path: try folder.appending("d\($0)"), kind: .folder) }
        items.append(Item(path: try folder.appending("file.txt"), kind: .file, size: 1))
        return items
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []
    func add(_ text: String) { lock.withLock { seen.append(text) } }
    var all: [String] { lock.withLock { seen } }
}

@Suite("CacheHierarchy")
struct CacheHierarchyTests {
    @Test("a bounded walk is browsable offline, runs the content loader per node and reports progress")
    func loadAndBrowse() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let tree = FakeTree(width: 3, depth: 5)
        let hierarchy = store.hierarchy(named: "folders", account: Fixtures.alice)
        #expect(await !hierarchy.isLoaded)
        #expect(try await hierarchy.roots().isEmpty)
        let loaded = Counter()
        try await hierarchy.load(maxDepth: 2, fetch: { try tree.children(of: $0) }) { node, depth in
            loaded.add("\(depth) \(node.path)")
        }
        #expect(await hierarchy.isLoaded)
        #expect(try await hierarchy.roots().map(\.name) == ["d0", "d1", "d2", "file.txt"])
        #expect(try await hierarchy.children(of: "/d1").map(\.name) == ["d0", "d1", "d2", "file.txt"])
        #expect(try await hierarchy.children(of: "/d1/d1").isEmpty, "not walked past maxDepth")
        #expect(loaded.all.count == 4 + 3 * 4)
        #expect(loaded.all.contains("0 /d2") && loaded.all.contains("1 /d2/file.txt"))
        #expect(store.hierarchy(named: "folders", account: Fixtures.alice) === hierarchy)
        #expect(try await store.hierarchy(named: "folders", account: Fixtures.bob).roots().isEmpty)

        // Reopened (offline): the tree is still there.
        let reopened = try CacheStore(directory: dir.url)
        #expect(try await reopened.hierarchy(named: "folders", account: Fixtures.alice).children(of: "/d0").count == 4)
    }

    @Test("an interrupted load leaves the previous tree; a complete one replaces it")
    func interruptedLoad() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let hierarchy = store.hierarchy(named: "all", account: Fixtures.alice)
        try await hierarchy.load(maxDepth: 3, fetch: { try FakeTree(width: 2, depth: 3).children(of: $0) })
        let before = try await hierarchy.children(of: "/d0/d1")
        #expect(before.count == 3)
        await #expect(throws: ProviderError.self) {
            try await hierarchy.load(maxDepth: 3, fetch: { folder in
                if folder.segments.count == 2 { throw ProviderError(.network, "offline") }
                return [Item(path: try folder.appending("new"), kind: .folder)]
            })
        }
        #expect(try await hierarchy.children(of: "/d0/d1") == before)
        #expect(try await hierarchy.roots().map(\.name) == ["d0", "d1", "file.txt"])
        try await hierarchy.load(maxDepth: 1, fetch: { _ in [Item(path: "/only", kind: .folder)] })
        #expect(try await hierarchy.roots().map(\.name) == ["only"])
        #expect(try await hierarchy.children(of: "/d0").isEmpty)
        let leftovers = try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM hierarchy_node") }
        #expect(leftovers == 1)
    }

    @Test("progress is observable while loading and finishes with the load; waitUntilIdle awaits it")
    func progress() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let hierarchy = store.hierarchy(named: "slow", account: Fixtures.alice)
        let (gate, open) = AsyncStream<Void>.makeStream()
        let load = Task {
            try await hierarchy.load(maxDepth: 3, fetch: { folder in
                if folder.isRoot { for await _ in gate { break } }
                return try FakeTree(width: 2, depth: 3).children(of: folder)
            })
        }
        while !hierarchy.isLoading { await Task.yield() }
        let progress = hierarchy.progress()
        open.yield()
        var counts: [Int] = []
        for await count in progress { counts.append(count) }
        try await load.value
        await hierarchy.waitUntilIdle()
        #expect(counts.first == 0)
        let total = 3 + 2 * 3 + 4 * 3
        #expect(counts.last == total)
        #expect(counts == counts.sorted())
        var after: [Int] = []
        for await count in hierarchy.progress() { after.append(count) }
        #expect(after.count == 1, "no load running: the current count, then the end")
    }

    @Test("a tree from one query's flat results")
    func fromQuery() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let hierarchy = store.hierarchy(named: "folders", account: Fixtures.nuxeo)
        let depths = Counter()
        try await hierarchy.load(from: { [Item(path: "/a/b/c", kind: .folder), Item(path: "/a", kind: .folder), Item(path: "/a/b", kind: .folder)] }) {
            depths.add("\($0.path)=\($1)")
        }
        #expect(try await hierarchy.roots().map(\.name) == ["a"])
        #expect(try await hierarchy.children(of: "/a/b").map(\.name) == ["c"])
        #expect(Set(depths.all) == ["/a=0", "/a/b=1", "/a/b/c=2"])
    }
}

import Foundation
import GRDB
import ProviderAPI

/// A named tree of items cached for offline browsing, such as every folder of an account.
///
/// ``load(maxDepth:fetch:contentLoader:)`` walks the server breadth-first (or
/// ``load(from:contentLoader:)`` takes one query's flat results) and replaces
/// the stored tree only once the load completes, so an interrupted load
/// (error, cancellation, crash) leaves the previous tree browsable. Node
/// depths count from 0 for the children of the root. Loads of one hierarchy
/// object run one at a time; ``progress()`` and ``waitUntilIdle()`` observe them.
package final class CacheHierarchy: Sendable {
    /// The hierarchy's name.
    package let name: String
    /// The account it belongs to.
    package let account: ProviderAccount

    private let pool: DatabasePool
    private let gate = HierarchyLoadGate()
    /// How many content loaders run at once.
    static let contentConcurrency = 4

    init(pool: DatabasePool, name: String, account: ProviderAccount) {
        self.pool = pool
        self.name = name
        self.account = account
    }

    /// Loads the tree: `fetch(folder)` returns the children of a folder (the caller passes a provider's listAll); walks folders breadth-first to `maxDepth`; `contentLoader(node, depth)`, when given, runs for each node off the caller's task. Replaces the previous tree when complete; an interrupted load leaves the previous tree.
    ///
    /// `maxDepth` is the number of levels loaded: 1 loads the root's children
    /// only, 2 also the children of those folders, and so on.
    package func load(
        maxDepth: Int, fetch: @escaping @Sendable (ItemPath) async throws -> [Item],
        contentLoader: (@Sendable (Item, Int) async throws -> Void)? = nil
    ) async throws {
        try await run(contentLoader: contentLoader) { emit in
            var queue: [(folder: ItemPath, depth: Int)] = maxDepth > 0 ? [(.root, 0)] : []
            var index = 0
            while index < queue.count {
                let (folder, depth) = queue[index]
                index += 1
                try Task.checkCancellation()
                let children = try await fetch(folder)
                try await emit(children, depth)
                if depth + 1 < maxDepth {
                    for child in children where child.isFolder { queue.append((child.path, depth + 1)) }
                }
            }
        }
    }

    /// Loads the tree from one flat result, such as a search for every folder: each item's depth is its number of path segments less one.
    package func load(
        from fetchAll: @escaping @Sendable () async throws -> [Item],
        contentLoader: (@Sendable (Item, Int) async throws -> Void)? = nil
    ) async throws {
        try await run(contentLoader: contentLoader) { emit in
            let items = try await fetchAll().filter { !$0.path.isRoot }
            let levels = Dictionary(grouping: items) { $0.path.depth - 1 }
            for depth in levels.keys.sorted() {
                try await emit(levels[depth] ?? [], depth)
            }
        }
    }

    /// The loaded tree's top level (the children of the root), sorted by name bytewise.
    package func roots() async throws -> [Item] {
        try await children(of: .root)
    }

    /// The loaded children of `path`, sorted by name bytewise; empty when the tree holds none.
    package func children(of path: ItemPath) async throws -> [Item] {
        let coding = ItemCoding()
        let key = account.storageKey
        let name = self.name
        return try await Self.read(pool) { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT n.json FROM hierarchy_node n JOIN hierarchy h
                    ON h.account = n.account AND h.name = n.name AND h.generation = n.generation
                    WHERE n.account = ? AND n.name = ? AND n.parent = ? AND n.path <> '/'
                    ORDER BY n.path
                    """,
                arguments: [key, name, path.storageKey]
            ).map { try coding.item(in: $0) }
        }
    }

    /// Whether a load has completed (now or in an earlier run), so the tree is browsable.
    package var isLoaded: Bool {
        get async {
            let key = account.storageKey
            let name = self.name
            let found = try? await Self.read(pool) { db in
                try Bool.fetchOne(db, sql: "SELECT 1 FROM hierarchy WHERE account = ? AND name = ?", arguments: [key, name])
            }
            return found.flatMap { $0 } ?? false
        }
    }

    /// When the last completed load finished, or nil.
    package func loadedAt() async throws -> Date? {
        let key = account.storageKey
        let name = self.name
        return try await Self.read(pool) { db in
            try Double.fetchOne(db, sql: "SELECT loadedAt FROM hierarchy WHERE account = ? AND name = ?", arguments: [key, name])
        }.map(Date.init(storedValue:))
    }

    /// Whether a load of this object is running.
    package var isLoading: Bool { gate.isLoading }

    /// Nodes loaded so far by the running load; finishes when the load ends (at once, after the current count, when none runs).
    package func progress() -> AsyncStream<Int> { gate.progress() }

    /// Returns once no load of this object runs.
    package func waitUntilIdle() async { await gate.waitUntilIdle() }

    /// Runs one load: `walk` hands each batch of nodes (with their depth) to `emit`, which stores them under a new generation.
    private func run(
        contentLoader: (@Sendable (Item, Int) async throws -> Void)?,
        walk: (_ emit: (_ nodes: [Item], _ depth: Int) async throws -> Void) async throws -> Void
    ) async throws {
        await gate.begin()
        let generation = Int64.random(in: 1...Int64.max)
        let key = account.storageKey
        let name = self.name
        let pool = self.pool
        let coding = ItemCoding()
        var stored = 0
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var running = 0
                try await walk { nodes, depth in
                    try await Self.write(pool) { db in
                        for node in nodes {
                            try db.execute(
                                sql: """
                                    INSERT OR REPLACE INTO hierarchy_node (account, name, generation, path, parent, depth, json)
                                    VALUES (?, ?, ?, ?, ?, ?, ?)
                                    """,
                                arguments: [key, name, generation, node.path.storageKey, node.path.parent.storageKey, depth, try coding.encode(node)])
                        }
                    }
                    stored += nodes.count
                    gate.report(stored)
                    guard let contentLoader else { return }
                    for node in nodes {
                        if running >= Self.contentConcurrency {
                            try await group.next()
                            running -= 1
                        }
                        group.addTask { try await contentLoader(node, depth) }
                        running += 1
                    }
                }
                try await group.waitForAll()
            }
            try await Self.write(pool) { db in
                let count = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM hierarchy_node WHERE account = ? AND name = ? AND generation = ?",
                    arguments: [key, name, generation]) ?? 0
                try db.execute(
                    sql: "INSERT OR REPLACE INTO hierarchy (account, name, generation, loadedAt, nodes) VALUES (?, ?, ?, ?, ?)",
                    arguments: [key, name, generation, Date().timeIntervalSinceReferenceDate, count])
                try db.execute(
                    sql: "DELETE FROM hierarchy_node WHERE account = ? AND name = ? AND generation <> ?",
                    arguments: [key, name, generation])
            }
            gate.end()
        } catch {
            // The nodes of the interrupted load go even when it was cancelled: the write is not cancelled (see `write`).
            try? await Self.write(pool) { db in
                try db.execute(
                    sql: "DELETE FROM hierarchy_node WHERE account = ? AND name = ? AND generation = ?",
                    arguments: [key, name, generation])
            }
            gate.end()
            if error is CancellationError { throw ProviderError(.cancelled, "hierarchy load of \(name) cancelled") }
            throw CacheStore.wrap(error)
        }
    }

    /// A read through GRDB's async accessor, run to the end even when the caller is cancelled (as ``CacheStore``'s are).
    private static func read<T: Sendable>(_ pool: DatabasePool, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await CacheStore.uncancelled { try await pool.read(body) } } catch { throw CacheStore.wrap(error) }
    }

    /// A write transaction through GRDB's async accessor, run to the end even when the caller is cancelled:
    /// a cancelled load still removes its nodes.
    private static func write<T: Sendable>(_ pool: DatabasePool, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await CacheStore.uncancelled { try await pool.write(body) } } catch { throw CacheStore.wrap(error) }
    }
}

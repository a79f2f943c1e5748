import Foundation
import GRDB
import ProviderAPI

extension CacheStore {
    /// Stores (or replaces) the metadata of one item.
    package func saveItem(_ item: Item, account: ProviderAccount, fetchedAt: Date = Date()) async throws {
        let coding = ItemCoding()
        try await write { db in
            try coding.upsert(item, account: account.storageKey, fetchedAt: fetchedAt, in: db)
        }
    }

    /// Stores (or replaces) the metadata of several items in one transaction.
    package func saveItems(_ items: [Item], account: ProviderAccount, fetchedAt: Date = Date()) async throws {
        let coding = ItemCoding()
        let key = account.storageKey
        try await write { db in
            for item in items { try coding.upsert(item, account: key, fetchedAt: fetchedAt, in: db) }
        }
    }

    /// The cached metadata of the item at `path`, or nil when the cache has none.
    package func item(at path: ItemPath, account: ProviderAccount) async throws -> CachedItem? {
        let coding = ItemCoding()
        return try await read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT json, fetchedAt FROM item WHERE account = ? AND path = ?",
                    arguments: [account.storageKey, path.storageKey])
            else { return nil }
            return CachedItem(item: try coding.item(in: row), fetchedAt: Date(storedValue: row["fetchedAt"]))
        }
    }

    /// Removes the item and everything below it (and listings of them).
    package func removeItem(at path: ItemPath, account: ProviderAccount) async throws {
        try await write { db in try Self.removeSubtree(path.storageKey, bounds: path.descendantRange, account: account.storageKey, in: db) }
    }

    /// Moves an item and everything below it to `destination`, paths rewritten.
    ///
    /// Whatever the cache held at `destination` is replaced. An item whose
    /// `ProviderAPI.Item.id` was its old path gets its new path as id.
    package func moveItem(from source: ItemPath, to destination: ItemPath, account: ProviderAccount) async throws {
        guard !source.isRoot else { throw ProviderError(.invalidArgument, "the root cannot be moved") }
        guard PathKey(source) != PathKey(destination) else { return }
        if destination.storageKey.utf8.starts(with: (source.storageKey + "/").utf8) {
            throw ProviderError(.invalidArgument, "cannot move \(source) into itself (\(destination))")
        }
        let key = account.storageKey
        try await write { db in try Self.moveSubtree(from: source, to: destination, account: key, in: db) }
    }

    /// Moves the rows of `source` and everything below it to `destination` inside the caller's transaction
    /// (``moveItem(from:to:account:)`` without its checks).
    static func moveSubtree(from source: ItemPath, to destination: ItemPath, account key: String, in db: Database) throws {
        let coding = ItemCoding()
        let bounds = source.descendantRange
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT path, json, fetchedAt FROM item WHERE account = ? AND (path = ? OR (path > ? AND path < ?))",
            arguments: [key, source.storageKey, bounds.lower, bounds.upper])
        let listings = try Row.fetchAll(
            db,
            sql: "SELECT path, fetchedAt, complete, changeToken FROM listing WHERE account = ? AND (path = ? OR (path > ? AND path < ?))",
            arguments: [key, source.storageKey, bounds.lower, bounds.upper])
        try Self.removeSubtree(source.storageKey, bounds: bounds, account: key, in: db)
        try Self.removeSubtree(destination.storageKey, bounds: destination.descendantRange, account: key, in: db)
        for row in rows {
            let oldPath: String = row["path"]
            var item = try coding.item(in: row)
            let newPath = try Self.rebase(oldPath, from: source, to: destination)
            if PathKey(item.id) == PathKey(oldPath) { item.id = newPath.storageKey }
            item.path = newPath
            try coding.upsert(item, account: key, fetchedAt: Date(storedValue: row["fetchedAt"]), in: db)
        }
        for row in listings {
            let newPath = try Self.rebase(row["path"], from: source, to: destination)
            try db.execute(
                sql: "INSERT OR REPLACE INTO listing (account, path, fetchedAt, complete, changeToken) VALUES (?, ?, ?, ?, ?)",
                arguments: [key, newPath.storageKey, row["fetchedAt"] as Double, row["complete"] as Bool, row["changeToken"] as String?])
        }
    }

    /// `path` (a stored path equal to or below `source`) rewritten below `destination`.
    static func rebase(_ stored: String, from source: ItemPath, to destination: ItemPath) throws -> ItemPath {
        let sourceText = source.storageKey
        let suffix = stored.utf8.count > sourceText.utf8.count
            ? String(decoding: stored.utf8.dropFirst(sourceText.utf8.count + 1), as: UTF8.self) : ""
        return suffix.isEmpty ? destination : destination.appending(try ItemPath(suffix))
    }

    /// Deletes the item at `path`, every item below it, and their listings.
    static func removeSubtree(_ path: String, bounds: (lower: String, upper: String), account: String, in db: Database) throws {
        for table in ["item", "listing"] {
            try db.execute(
                sql: "DELETE FROM \(table) WHERE account = ? AND (path = ? OR (path > ? AND path < ?))",
                arguments: [account, path, bounds.lower, bounds.upper])
        }
    }
}

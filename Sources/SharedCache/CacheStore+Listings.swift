import Foundation
import GRDB
import ProviderAPI

extension CacheStore {
    /// Replaces the cached children of `folder` with `items` (removing children not in it when `complete`), records the listing.
    ///
    /// A child removed because a complete listing no longer holds it takes
    /// everything cached below it along. Only the rows of children that changed
    /// are rewritten (an unchanged child only gets the new fetch time), so
    /// refreshing an unchanged 10,000-child listing rewrites no item and leaves
    /// the search index alone. `changeToken` is the folder's etag or the
    /// change-feed token the listing was read at, returned by ``listing(of:account:)``.
    /// Returns how many children were new or changed.
    @discardableResult
    package func saveListing(
        _ items: [Item], of folder: ItemPath, account: ProviderAccount, complete: Bool, fetchedAt: Date = Date(),
        changeToken: String? = nil
    ) async throws -> Int {
        let coding = ItemCoding()
        let key = account.storageKey
        let folderKey = folder.storageKey
        return try await write { db in
            var existing: [PathKey: Data] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, json FROM item WHERE account = ? AND parent = ? AND path <> '/'", arguments: [key, folderKey]) {
                existing[PathKey(row["path"] as String)] = row["json"]
            }
            if complete {
                let kept = Set(items.map { PathKey($0.path.storageKey) })
                for path in existing.keys where !kept.contains(path) {
                    let child = try ItemPath(path.text)
                    try Self.removeSubtree(path.text, bounds: child.descendantRange, account: key, in: db)
                }
            }
            var changed = 0
            for item in items {
                let json = try coding.encode(item)
                if existing[PathKey(item.path.storageKey)] == json { continue }
                try coding.upsert(item, json: json, account: key, fetchedAt: fetchedAt, in: db)
                changed += 1
            }
            try Self.touchChildren(of: folderKey, account: key, at: fetchedAt.timeIntervalSinceReferenceDate, in: db)
            try db.execute(
                sql: "INSERT OR REPLACE INTO listing (account, path, fetchedAt, complete, changeToken) VALUES (?, ?, ?, ?, ?)",
                arguments: [key, folderKey, fetchedAt.timeIntervalSinceReferenceDate, complete, changeToken])
            return changed
        }
    }

    /// Marks the cached listing of `folder` as fetched at `fetchedAt` without touching its
    /// children: the server showed it unchanged (same folder etag). Returns false when it was never listed.
    @discardableResult
    package func touchListing(of folder: ItemPath, account: ProviderAccount, fetchedAt: Date = Date()) async throws -> Bool {
        let key = account.storageKey
        let folderKey = folder.storageKey
        let stamp = fetchedAt.timeIntervalSinceReferenceDate
        return try await write { db in
            try db.execute(sql: "UPDATE listing SET fetchedAt = ? WHERE account = ? AND path = ?", arguments: [stamp, key, folderKey])
            guard db.changesCount > 0 else { return false }
            try Self.touchChildren(of: folderKey, account: key, at: stamp, in: db)
            return true
        }
    }

    /// The cached listing of `folder`, its children sorted by name (bytewise), or nil when it was never listed.
    package func listing(of folder: ItemPath, account: ProviderAccount) async throws -> CachedListing? {
        let coding = ItemCoding()
        let key = account.storageKey
        return try await read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT fetchedAt, complete, changeToken FROM listing WHERE account = ? AND path = ?",
                    arguments: [key, folder.storageKey])
            else { return nil }
            let items = try Self.children(of: folder.storageKey, account: key, coding: coding, in: db)
            return CachedListing(
                items: items, fetchedAt: Date(storedValue: row["fetchedAt"]), isComplete: row["complete"],
                changeToken: row["changeToken"])
        }
    }

    /// Gives every cached child of `folder` the fetch time `stamp`, in one statement.
    static func touchChildren(of folder: String, account: String, at stamp: Double, in db: Database) throws {
        try db.execute(
            sql: "UPDATE item SET fetchedAt = ? WHERE account = ? AND parent = ? AND path <> '/'", arguments: [stamp, account, folder])
    }

    /// When `folder` was listed, whether completely, and the change token it was read at, without
    /// reading its children; nil when it was never listed.
    package func listingState(of folder: ItemPath, account: ProviderAccount) async throws -> (fetchedAt: Date, isComplete: Bool, changeToken: String?)? {
        try await read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT fetchedAt, complete, changeToken FROM listing WHERE account = ? AND path = ?",
                    arguments: [account.storageKey, folder.storageKey])
            else { return nil }
            return (Date(storedValue: row["fetchedAt"]), row["complete"], row["changeToken"])
        }
    }

    /// The cached children of `folder` (listed or not), sorted by name bytewise.
    package func cachedChildren(of folder: ItemPath, account: ProviderAccount) async throws -> [Item] {
        let coding = ItemCoding()
        return try await read { db in try Self.children(of: folder.storageKey, account: account.storageKey, coding: coding, in: db) }
    }

    static func children(of folder: String, account: String, coding: ItemCoding, in db: Database) throws -> [Item] {
        try Row.fetchAll(
            db, sql: "SELECT json FROM item WHERE account = ? AND parent = ? AND path <> '/' ORDER BY name, path",
            arguments: [account, folder]
        ).map { try coding.item(in: $0) }
    }
}

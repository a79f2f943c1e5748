import Foundation
import GRDB
import ProviderAPI

extension CacheStore {
    /// Replaces the cached children of `folder` with `items` (removing children not in it when `complete`), records the listing.
    ///
    /// A child removed because a complete listing no longer holds it takes
    /// everything cached below it along. `changeToken` is the folder's etag or
    /// the change-feed token the listing was read at, returned by ``listing(of:account:)``.
    public func saveListing(
        _ items: [Item], of folder: ItemPath, account: ProviderAccount, complete: Bool, fetchedAt: Date = Date(),
        changeToken: String? = nil
    ) throws {
        let coding = ItemCoding()
        let key = account.storageKey
        let folderKey = folder.storageKey
        try write { db in
            if complete {
                let kept = Set(items.map { PathKey($0.path) })
                let existing = try String.fetchAll(
                    db, sql: "SELECT path FROM item WHERE account = ? AND parent = ?", arguments: [key, folderKey])
                for path in existing where !kept.contains(PathKey(path)) {
                    let child = try ItemPath(path)
                    try Self.removeSubtree(path, bounds: child.descendantRange, account: key, in: db)
                }
            }
            for item in items {
                try coding.upsert(item, account: key, fetchedAt: fetchedAt, in: db)
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO listing (account, path, fetchedAt, complete, changeToken) VALUES (?, ?, ?, ?, ?)",
                arguments: [key, folderKey, fetchedAt.timeIntervalSinceReferenceDate, complete, changeToken])
        }
    }

    /// The cached listing of `folder`, its children sorted by name (bytewise), or nil when it was never listed.
    public func listing(of folder: ItemPath, account: ProviderAccount) throws -> CachedListing? {
        let coding = ItemCoding()
        let key = account.storageKey
        return try read { db in
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

    /// The cached children of `folder` (listed or not), sorted by name bytewise.
    public func cachedChildren(of folder: ItemPath, account: ProviderAccount) throws -> [Item] {
        let coding = ItemCoding()
        return try read { db in try Self.children(of: folder.storageKey, account: account.storageKey, coding: coding, in: db) }
    }

    static func children(of folder: String, account: String, coding: ItemCoding, in db: Database) throws -> [Item] {
        try Row.fetchAll(
            db, sql: "SELECT json FROM item WHERE account = ? AND parent = ? AND path <> '/' ORDER BY name, path",
            arguments: [account, folder]
        ).map { try coding.item(in: $0) }
    }
}

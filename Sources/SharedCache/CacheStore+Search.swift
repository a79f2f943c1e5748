import Foundation
import GRDB
import ProviderAPI

extension CacheStore {
    /// Cached items matching `query` (FTS5 on names and paths for nameContains/fullText, then `Query.matches` for the rest), below `folder`.
    ///
    /// Results are sorted by path (bytewise); `limit` caps how many come back.
    /// Works offline, and for servers without a search of their own.
    package func search(_ query: Query, under folder: ItemPath = .root, account: ProviderAccount, limit: Int? = nil) async throws -> [Item] {
        try await read { db in try Self.search(query, under: folder, account: account.storageKey, limit: limit, in: db) }
    }

    static func search(_ query: Query, under folder: ItemPath, account: String, limit: Int?, in db: Database) throws -> [Item] {
        let coding = ItemCoding()
        let plan = SearchPlan(query)
        let bounds = folder.descendantRange
        var sql = "SELECT item.json FROM item WHERE item.account = ? AND item.path > ? AND item.path < ?"
        var arguments: StatementArguments = [account, bounds.lower, bounds.upper]
        for condition in plan.conditions { sql += " AND " + condition }
        _ = arguments.append(contentsOf: plan.arguments)
        sql += " ORDER BY item.path"
        var results: [Item] = []
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try cursor.next() {
            let item = try coding.item(in: row)
            guard query.matches(item) else { continue }
            results.append(item)
            if let limit, results.count >= limit { break }
        }
        return results
    }
}

import Foundation
import GRDB
import ProviderAPI

/// Writes and reads `Item`s as rows of the `item` table: searchable columns plus the whole item as JSON.
struct ItemCoding: Sendable {
    private let encoder: JSONEncoder
    private let decoder = JSONDecoder()

    init() {
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
    }

    /// The JSON the cache keeps for `item`; equal items of one spelling give equal bytes.
    func encode(_ item: Item) throws -> Data {
        try encoder.encode(item)
    }

    /// The item stored as `data`.
    func decode(_ data: Data) throws -> Item {
        try decoder.decode(Item.self, from: data)
    }

    static let upsertSQL = """
        INSERT INTO item (account, path, parent, name, fname, fpath, kind, size, modified, mimeType, etag, json, fetchedAt)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (account, path) DO UPDATE SET
            parent = excluded.parent, name = excluded.name, fname = excluded.fname, fpath = excluded.fpath,
            kind = excluded.kind, size = excluded.size, modified = excluded.modified, mimeType = excluded.mimeType,
            etag = excluded.etag, json = excluded.json, fetchedAt = excluded.fetchedAt
        """

    /// Inserts or replaces `item`'s row.
    func upsert(_ item: Item, account: String, fetchedAt: Date, in db: Database) throws {
        try upsert(item, json: try encode(item), account: account, fetchedAt: fetchedAt, in: db)
    }

    /// Inserts or replaces `item`'s row, whose JSON (``encode(_:)``) the caller already made.
    func upsert(_ item: Item, json: Data, account: String, fetchedAt: Date, in db: Database) throws {
        let statement = try db.cachedStatement(sql: Self.upsertSQL)
        let path = item.path.storageKey
        let arguments: StatementArguments = [
            account, path, item.path.parent.storageKey, item.name,
            TextFolding.fold(item.name), TextFolding.fold(path),
            item.kind.rawValue, item.size, item.modified?.timeIntervalSinceReferenceDate,
            item.mimeType, item.etag, json, fetchedAt.timeIntervalSinceReferenceDate,
        ]
        try statement.execute(arguments: arguments)
    }

    /// The item in a row that selected `json`.
    func item(in row: Row) throws -> Item {
        let data: Data = row["json"]
        return try decode(data)
    }
}

extension Date {
    /// The date stored in the database as seconds since the reference date (exact round trip).
    init(storedValue: Double) { self.init(timeIntervalSinceReferenceDate: storedValue) }
}

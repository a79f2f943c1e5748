import Foundation
import GRDB
import ProviderAPI

/// The `journal` table of the cache database (migration `v6-sync-journal`) and the coding of its rows.
///
/// One row per pending action: `id` (AUTOINCREMENT, never reused), the account, the action and the
/// recorded copies as JSON, the state, the conflict as JSON, the attempt count and the last error,
/// and `content`, the file name under `journal/` holding an upload's bytes.
enum JournalSchema {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE journal (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                account TEXT NOT NULL,
                action BLOB NOT NULL,
                recorded BLOB,
                recordedDestination BLOB,
                recordedAt REAL NOT NULL,
                state TEXT NOT NULL,
                conflict BLOB,
                attempts INTEGER NOT NULL DEFAULT 0,
                errorCode TEXT,
                errorMessage TEXT,
                content TEXT
            );
            CREATE INDEX journal_account ON journal(account, id);
            """)
    }

    static let columns = "id, account, action, recorded, recordedDestination, recordedAt, state, conflict, attempts, errorCode, errorMessage, content"

    /// An entry and the name of its content file.
    struct Row: Sendable {
        var entry: JournalEntry
        var content: String?
    }

    static func decode(_ row: GRDB.Row) throws -> Row {
        let decoder = JSONDecoder()
        let action = try decoder.decode(JournalAction.self, from: row["action"] as Data)
        let recorded = try (row["recorded"] as Data?).map { try decoder.decode(Item.self, from: $0) }
        let destination = try (row["recordedDestination"] as Data?).map { try decoder.decode(Item.self, from: $0) }
        let conflict = try (row["conflict"] as Data?).map { try decoder.decode(JournalConflict.self, from: $0) }
        let state = JournalEntry.State(rawValue: row["state"] as String) ?? .pending
        var error: ProviderError?
        if let code = row["errorCode"] as String? {
            error = ProviderError(errorCode(named: code), row["errorMessage"] as String?)
        }
        let entry = JournalEntry(
            id: row["id"], account: row["account"], action: action, recorded: recorded, recordedDestination: destination,
            recordedAt: Date(timeIntervalSinceReferenceDate: row["recordedAt"]), state: state, conflict: conflict,
            attempts: row["attempts"], lastError: error)
        return Row(entry: entry, content: row["content"])
    }

    static func encode<T: Encodable>(_ value: T?) throws -> Data? {
        guard let value else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    /// The code called `name` (`ProviderError.Code.description`); `.server` for an unknown name.
    static func errorCode(named name: String) -> ProviderError.Code {
        let known: [ProviderError.Code] = [
            .notFound, .alreadyExists, .unauthorized, .captchaRequired, .forbidden, .conflict, .preconditionFailed,
            .quotaExceeded, .rateLimited, .unsupported, .invalidResponse, .invalidArgument, .network, .io, .server,
            .cancelled, .integrity, .unknown,
        ]
        return known.first { $0.description == name } ?? .server
    }

    /// The rows of `account` (every account when nil), in order.
    static func rows(account: String?, in db: Database) throws -> [Row] {
        if let account {
            return try GRDB.Row.fetchAll(db, sql: "SELECT \(columns) FROM journal WHERE account = ? ORDER BY id", arguments: [account]).map(decode)
        }
        return try GRDB.Row.fetchAll(db, sql: "SELECT \(columns) FROM journal ORDER BY id").map(decode)
    }

    static func row(id: Int64, in db: Database) throws -> Row? {
        try GRDB.Row.fetchOne(db, sql: "SELECT \(columns) FROM journal WHERE id = ?", arguments: [id]).map(decode)
    }

    /// Inserts a new entry; returns its id.
    static func insert(
        account: String, action: JournalAction, recorded: Item?, recordedDestination: Item?, at date: Date, content: String?,
        in db: Database
    ) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO journal (account, action, recorded, recordedDestination, recordedAt, state, content)
                VALUES (?, ?, ?, ?, ?, 'pending', ?)
                """,
            arguments: [account, try encode(action), try encode(recorded), try encode(recordedDestination), date.timeIntervalSinceReferenceDate, content])
        return db.lastInsertedRowID
    }

    /// Rewrites an entry's action, recorded copies, state, conflict, attempts, error and content.
    static func update(_ row: Row, in db: Database) throws {
        let entry = row.entry
        try db.execute(
            sql: """
                UPDATE journal SET action = ?, recorded = ?, recordedDestination = ?, state = ?, conflict = ?, attempts = ?,
                errorCode = ?, errorMessage = ?, content = ? WHERE id = ?
                """,
            arguments: [
                try encode(entry.action), try encode(entry.recorded), try encode(entry.recordedDestination), entry.state.rawValue,
                try encode(entry.conflict), entry.attempts, entry.lastError?.code.description, entry.lastError.map { Redactor.redact($0.message ?? "") },
                row.content, entry.id,
            ])
    }

    static func delete(id: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM journal WHERE id = ?", arguments: [id])
    }
}

import Foundation
import GRDB
import ProviderAPI

/// The table of `UploadCheckpoint`s: one row per account and destination.
enum UploadCheckpointTable {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE upload_checkpoint (
                account TEXT NOT NULL,
                destination TEXT NOT NULL,
                resumeKey TEXT NOT NULL,
                format TEXT NOT NULL,
                state BLOB NOT NULL,
                savedAt REAL NOT NULL,
                PRIMARY KEY (account, destination)
            ) WITHOUT ROWID;
            """)
    }
}

/// The cache keeps the sessions of chunked uploads, so that an upload cut off part way (a lost
/// network, a killed process) resumes in any process sharing the cache folder: give the store to
/// providers as `ProviderServices.uploadCheckpoints`.
extension CacheStore: UploadCheckpoints {
    public func checkpoint(account: String, destination: String) async throws -> UploadCheckpoint? {
        try await read { db in
            let row = try Row.fetchOne(
                db,
                sql: "SELECT resumeKey, format, state, savedAt FROM upload_checkpoint WHERE account = ? AND destination = ?",
                arguments: [account, destination])
            guard let row else { return nil }
            let savedAt: Double = row["savedAt"]
            return UploadCheckpoint(
                account: account, destination: destination, resumeKey: row["resumeKey"], format: row["format"], state: row["state"],
                savedAt: Date(timeIntervalSince1970: savedAt))
        }
    }

    public func save(_ checkpoint: UploadCheckpoint) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO upload_checkpoint (account, destination, resumeKey, format, state, savedAt) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (account, destination) DO UPDATE SET
                        resumeKey = excluded.resumeKey, format = excluded.format, state = excluded.state, savedAt = excluded.savedAt
                    """,
                arguments: [
                    checkpoint.account, checkpoint.destination, checkpoint.resumeKey, checkpoint.format, checkpoint.state,
                    checkpoint.savedAt.timeIntervalSince1970,
                ])
        }
    }

    public func removeCheckpoint(account: String, destination: String) async throws {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM upload_checkpoint WHERE account = ? AND destination = ?", arguments: [account, destination])
        }
    }

    /// Every upload session kept, oldest first (for tools and tests).
    package func uploadCheckpoints() async throws -> [UploadCheckpoint] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT account, destination, resumeKey, format, state, savedAt FROM upload_checkpoint ORDER BY savedAt"
            ).map { row in
                let savedAt: Double = row["savedAt"]
                return UploadCheckpoint(
                    account: row["account"], destination: row["destination"], resumeKey: row["resumeKey"], format: row["format"],
                    state: row["state"], savedAt: Date(timeIntervalSince1970: savedAt))
            }
        }
    }
}

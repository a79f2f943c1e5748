import Foundation
import GRDB
import ProviderAPI
import TransferEngine

/// The transfer engine's `TransferJobStore` on SQLite: the plans and progress of transfer jobs
/// (copy and sync between two providers), and the digests computed from source files, kept in the
/// cache database so that a job killed half-way
/// continues without sending its finished files again, and a digest is computed once per version
/// of a file.
///
/// A job is identified by its `TransferJobKey` (mode, source and destination). Its actions are
/// kept with their state (`TransferJobAction/State`); each file the destination confirmed is kept with the
/// `FileFingerprint` of the source it was read from and of the destination it became
/// (`FinishedFile`). A job that ran to the end is marked complete; the next job for the same key
/// replaces it, while an unfinished one is resumed (``begin(_:fresh:)``).
///
/// Every write is one short transaction; a file's record is written only after the destination
/// took it, so a crash may lose the record of the files finished since the last write, never
/// record a file that was not sent.
package final class SQLiteTransferJobStore: TransferJobStore {
    let pool: DatabasePool
    let cache: CacheStore

    /// The jobs kept in `cache`'s database.
    package init(cache: CacheStore) {
        self.cache = cache
        pool = cache.pool
    }

    /// Opens the job of `key`: the unfinished job of that key, resumed with the files it finished,
    /// or (none unfinished, or `fresh`) a new job replacing any earlier one.
    package func begin(_ key: TransferJobKey, fresh: Bool = false) async throws -> TransferJob {
        let now = Date().timeIntervalSince1970
        return try await cache.write { db in
            if let row = try Row.fetchOne(
                db, sql: "SELECT id, complete FROM transfer_job WHERE \(TransferJobKey.whereClause)", arguments: key.arguments)
            {
                let id: Int64 = row["id"]
                let complete: Bool = row["complete"]
                if !complete, !fresh {
                    try db.execute(sql: "UPDATE transfer_job SET updatedAt = ? WHERE id = ?", arguments: [now, id])
                    return TransferJob(id: id, resumed: true, finished: try Self.finishedFiles(db, job: id))
                }
                try db.execute(sql: "DELETE FROM transfer_job_action WHERE job = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM transfer_job WHERE id = ?", arguments: [id])
            }
            try db.execute(
                sql: """
                    INSERT INTO transfer_job (mode, sourceAccount, sourcePath, destinationAccount, destinationPath, complete, startedAt, updatedAt)
                    VALUES (?, ?, ?, ?, ?, 0, ?, ?)
                    """,
                arguments: key.arguments + [now, now])
            return TransferJob(id: db.lastInsertedRowID, resumed: false, finished: [])
        }
    }

    /// The files the unfinished job of `key` finished, without opening it (for a dry run); `nil`
    /// when there is no unfinished job.
    package func unfinished(_ key: TransferJobKey) async throws -> [FinishedFile]? {
        try await cache.read { db in
            guard
                let id = try Int64.fetchOne(
                    db, sql: "SELECT id FROM transfer_job WHERE \(TransferJobKey.whereClause) AND complete = 0", arguments: key.arguments)
            else { return nil }
            return try Self.finishedFiles(db, job: id)
        }
    }

    /// Records the actions of the job's plan as planned, leaving the actions it already finished as they are.
    package func recordPlan(_ job: Int64, actions: [TransferJobAction]) async throws {
        try await record(job, actions)
    }

    /// Records the states of `actions` (each replacing the record of the same path and kind), in one transaction.
    package func record(_ job: Int64, _ actions: [TransferJobAction]) async throws {
        guard !actions.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        try await cache.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO transfer_job_action (job, path, kind, state, size, modified, etag, digest, destinationSize, destinationETag)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (job, path, kind) DO UPDATE SET state = excluded.state, size = excluded.size,
                        modified = excluded.modified, etag = excluded.etag, digest = excluded.digest,
                        destinationSize = excluded.destinationSize, destinationETag = excluded.destinationETag
                    WHERE transfer_job_action.state != 'done' OR excluded.state = 'done'
                    """)
            for action in actions {
                let source = action.finished?.source
                let destination = action.finished?.destination
                try statement.execute(arguments: [
                    job, action.relativePath.storageKey, action.kind, action.state.rawValue, source?.size,
                    source?.modified?.timeIntervalSince1970, source?.etag, source?.digest, destination?.size, destination?.etag,
                ])
            }
            try db.execute(sql: "UPDATE transfer_job SET updatedAt = ? WHERE id = ?", arguments: [now, job])
        }
    }

    /// Marks the job complete: the next job of its key starts afresh.
    package func complete(_ job: Int64) async throws {
        let now = Date().timeIntervalSince1970
        try await cache.write { db in
            try db.execute(sql: "UPDATE transfer_job SET complete = 1, updatedAt = ? WHERE id = ?", arguments: [now, job])
        }
    }

    /// The actions recorded for the job, in no particular order.
    package func actions(of job: Int64) async throws -> [TransferJobAction] {
        try await cache.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM transfer_job_action WHERE job = ?", arguments: [job]
            ).compactMap { row in
                guard let path = try? ItemPath(row["path"] as String) else { return nil }
                let state = TransferJobAction.State(rawValue: row["state"]) ?? .planned
                return TransferJobAction(relativePath: path, kind: row["kind"], state: state, finished: state == .done ? Self.finished(row, path) : nil)
            }
        }
    }

    /// Whether the job of `key` is recorded, and complete.
    package func isComplete(_ key: TransferJobKey) async throws -> Bool? {
        try await cache.read { db in
            try Bool.fetchOne(db, sql: "SELECT complete FROM transfer_job WHERE \(TransferJobKey.whereClause)", arguments: key.arguments)
        }
    }

    // MARK: - Source digests

    /// The `algorithm` digest computed earlier from the file at `path` of `account`, if the file is
    /// still the version it was computed from (same size, modified time and etag).
    package func digest(
        of path: ItemPath, account: ProviderAccount, algorithm: DigestAlgorithm, version: FileFingerprint
    ) async throws -> String? {
        try await cache.read { db in
            try String.fetchOne(
                db,
                sql: """
                    SELECT digest FROM transfer_source_digest WHERE account = ? AND path = ? AND algorithm = ?
                    AND size IS ? AND modified IS ? AND etag IS ?
                    """,
                arguments: [
                    account.storageKey, path.storageKey, algorithm.rawValue, version.size, version.modified?.timeIntervalSince1970,
                    version.etag.map { String(ETag.opaque($0)) },
                ])
        }
    }

    /// Keeps digests computed from source files, each with the version of the file it was computed from.
    package func remember(digests: [ComputedDigest], account: ProviderAccount) async throws {
        guard !digests.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        try await cache.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO transfer_source_digest (account, path, algorithm, size, modified, etag, digest, computedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (account, path, algorithm) DO UPDATE SET size = excluded.size, modified = excluded.modified,
                        etag = excluded.etag, digest = excluded.digest, computedAt = excluded.computedAt
                    """)
            for computed in digests {
                try statement.execute(arguments: [
                    account.storageKey, computed.path.storageKey, computed.algorithm.rawValue, computed.version.size,
                    computed.version.modified?.timeIntervalSince1970, computed.version.etag.map { String(ETag.opaque($0)) }, computed.digest, now,
                ])
            }
        }
    }

    // MARK: - Rows

    private static func finishedFiles(_ db: Database, job: Int64) throws -> [FinishedFile] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM transfer_job_action WHERE job = ? AND kind = 'copyFile' AND state = 'done'", arguments: [job]
        ).compactMap { row in
            guard let path = try? ItemPath(row["path"] as String) else { return nil }
            return finished(row, path)
        }
    }

    private static func finished(_ row: Row, _ path: ItemPath) -> FinishedFile {
        let modified: Double? = row["modified"]
        return FinishedFile(
            relativePath: path,
            source: FileFingerprint(
                size: row["size"], modified: modified.map { Date(timeIntervalSince1970: $0) }, etag: row["etag"], digest: row["digest"]),
            destination: FileFingerprint(size: row["destinationSize"], etag: row["destinationETag"]))
    }

    /// The tables, created by the cache's migration `v4-transfer-jobs`.
    static func createTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE transfer_job (
                    id INTEGER PRIMARY KEY,
                    mode TEXT NOT NULL,
                    sourceAccount TEXT NOT NULL,
                    sourcePath TEXT NOT NULL,
                    destinationAccount TEXT NOT NULL,
                    destinationPath TEXT NOT NULL,
                    complete INTEGER NOT NULL,
                    startedAt REAL NOT NULL,
                    updatedAt REAL NOT NULL,
                    UNIQUE (mode, sourceAccount, sourcePath, destinationAccount, destinationPath)
                );
                CREATE TABLE transfer_job_action (
                    job INTEGER NOT NULL,
                    path TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    state TEXT NOT NULL,
                    size INTEGER,
                    modified REAL,
                    etag TEXT,
                    digest TEXT,
                    destinationSize INTEGER,
                    destinationETag TEXT,
                    PRIMARY KEY (job, path, kind)
                ) WITHOUT ROWID;
                CREATE TABLE transfer_source_digest (
                    account TEXT NOT NULL,
                    path TEXT NOT NULL,
                    algorithm TEXT NOT NULL,
                    size INTEGER,
                    modified REAL,
                    etag TEXT,
                    digest TEXT NOT NULL,
                    computedAt REAL NOT NULL,
                    PRIMARY KEY (account, path, algorithm)
                ) WITHOUT ROWID;
                """)
    }
}

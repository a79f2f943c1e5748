import Foundation
import GRDB
import ProviderAPI
import TransferEngine

extension SQLiteTransferJobStore {
    /// The folders the last finished run of the job of `key` recorded (`FolderVersion`), by
    /// relative path; empty when there is none, or it ran with other `settings` (the rule, the
    /// filters: whatever would make the same trees compare otherwise).
    package func folderVersions(of key: TransferJobKey, settings: String) async throws -> [ItemPath: FolderVersion] {
        try await cache.read { db in
            var versions: [ItemPath: FolderVersion] = [:]
            let rows = try Row.fetchAll(
                db, sql: "SELECT path, sourceETag, destinationETag, files FROM transfer_job_folder WHERE \(TransferJobKey.whereClause) AND settings = ?",
                arguments: key.arguments + [settings])
            for row in rows {
                guard let path = try? ItemPath(row["path"] as String) else { continue }
                versions[path] = FolderVersion(relativePath: path, sourceETag: row["sourceETag"], destinationETag: row["destinationETag"], files: row["files"])
            }
            return versions
        }
    }

    /// Replaces the folders recorded for the job of `key` by `versions`, found with `settings`, in
    /// one transaction. Call it only after a run that finished with no failure.
    package func replaceFolderVersions(of key: TransferJobKey, settings: String, with versions: [FolderVersion]) async throws {
        try await cache.write { db in
            try db.execute(sql: "DELETE FROM transfer_job_folder WHERE \(TransferJobKey.whereClause)", arguments: key.arguments)
            let statement = try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO transfer_job_folder
                    (mode, sourceAccount, sourcePath, destinationAccount, destinationPath, path, settings, sourceETag, destinationETag, files)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for version in versions {
                try statement.execute(
                    arguments: key.arguments
                        + [version.relativePath.storageKey, settings, version.sourceETag, version.destinationETag, version.files])
            }
        }
    }

    /// Forgets the folders recorded for the job of `key` (a failed run keeps them: they stay true
    /// while both etags do).
    package func forgetFolderVersions(of key: TransferJobKey) async throws {
        try await cache.write { db in
            try db.execute(sql: "DELETE FROM transfer_job_folder WHERE \(TransferJobKey.whereClause)", arguments: key.arguments)
        }
    }

    /// The table, created by the cache's migration `v7-job-folder-etags`.
    static func createFolderTable(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE transfer_job_folder (
                    mode TEXT NOT NULL,
                    sourceAccount TEXT NOT NULL,
                    sourcePath TEXT NOT NULL,
                    destinationAccount TEXT NOT NULL,
                    destinationPath TEXT NOT NULL,
                    path TEXT NOT NULL,
                    settings TEXT NOT NULL,
                    sourceETag TEXT NOT NULL,
                    destinationETag TEXT NOT NULL,
                    files INTEGER NOT NULL,
                    PRIMARY KEY (mode, sourceAccount, sourcePath, destinationAccount, destinationPath, path)
                ) WITHOUT ROWID;
                """)
    }
}

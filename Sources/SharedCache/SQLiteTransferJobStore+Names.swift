import Foundation
import GRDB
import ProviderAPI
import TransferEngine

extension SQLiteTransferJobStore {
    /// Keeps the names of `mappings`, given by a transfer from `sourcePath` of `sourceAccount` to
    /// `destinationPath` of `destinationAccount`: each replaces the record of the same destination
    /// item. Paths and names are compared as bytes.
    package func remember(
        names mappings: [RecordedName], sourceAccount: ProviderAccount, sourcePath: ItemPath, destinationAccount: ProviderAccount,
        destinationPath: ItemPath
    ) async throws {
        guard !mappings.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        let pair: StatementArguments = [sourceAccount.storageKey, sourcePath.storageKey, destinationAccount.storageKey, destinationPath.storageKey]
        try await cache.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO transfer_name_mapping (sourceAccount, sourcePath, destinationAccount, destinationPath, path, sourceName, recordedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (sourceAccount, sourcePath, destinationAccount, destinationPath, path)
                    DO UPDATE SET sourceName = excluded.sourceName, recordedAt = excluded.recordedAt
                    """)
            for mapping in mappings {
                try statement.execute(arguments: pair + [mapping.destinationPath.storageKey, mapping.sourceName, now])
            }
        }
    }

    /// The names transfers from `sourcePath` of `sourceAccount` to `destinationPath` of
    /// `destinationAccount` kept (``remember(names:sourceAccount:sourcePath:destinationAccount:destinationPath:)``).
    package func recordedNames(
        sourceAccount: ProviderAccount, sourcePath: ItemPath, destinationAccount: ProviderAccount, destinationPath: ItemPath
    ) async throws -> [RecordedName] {
        try await cache.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT path, sourceName FROM transfer_name_mapping
                    WHERE sourceAccount = ? AND sourcePath = ? AND destinationAccount = ? AND destinationPath = ?
                    """,
                arguments: [sourceAccount.storageKey, sourcePath.storageKey, destinationAccount.storageKey, destinationPath.storageKey]
            ).compactMap { row in
                guard let path = try? ItemPath(row["path"] as String) else { return nil }
                return RecordedName(destinationPath: path, sourceName: row["sourceName"])
            }
        }
    }

    /// The table, created by the cache's migration `v8-transfer-name-mappings`.
    static func createNameTable(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE transfer_name_mapping (
                    sourceAccount TEXT NOT NULL,
                    sourcePath TEXT NOT NULL,
                    destinationAccount TEXT NOT NULL,
                    destinationPath TEXT NOT NULL,
                    path TEXT NOT NULL,
                    sourceName TEXT NOT NULL,
                    recordedAt REAL NOT NULL,
                    PRIMARY KEY (sourceAccount, sourcePath, destinationAccount, destinationPath, path)
                ) WITHOUT ROWID;
                """)
    }
}

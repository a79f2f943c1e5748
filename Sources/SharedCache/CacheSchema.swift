import Foundation
import GRDB

/// The cache database's tables, as GRDB migrations.
///
/// The full-text index (`item_fts`, FTS5 trigram on folded names and paths,
/// external content `item`) is filled in bulk: inserting an item only notes
/// its rowid in `item_fts_pending`, and ``flushFullTextIndex(_:)`` indexes
/// every pending row in one statement at the end of each write transaction
/// (three times faster than indexing row by row in a trigger). Deletions and
/// renames update the index at once, skipping rows still pending.
enum CacheSchema {
    /// Indexes the items inserted in this transaction; every write transaction of the store ends with it.
    static func flushFullTextIndex(_ db: Database) throws {
        let pending = try db.cachedStatement(
            sql: """
                INSERT INTO item_fts(rowid, fname, fpath)
                SELECT item.rowid, item.fname, item.fpath FROM item_fts_pending JOIN item ON item.rowid = item_fts_pending.id
                """)
        try pending.execute()
        guard db.changesCount > 0 else { return }
        try db.execute(sql: "DELETE FROM item_fts_pending")
    }

    /// The migrator that brings any cache database up to date.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE item (
                    account TEXT NOT NULL,
                    path TEXT NOT NULL,
                    parent TEXT NOT NULL,
                    name TEXT NOT NULL,
                    fname TEXT NOT NULL,
                    fpath TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    size INTEGER,
                    modified REAL,
                    mimeType TEXT,
                    etag TEXT,
                    json BLOB NOT NULL,
                    fetchedAt REAL NOT NULL,
                    UNIQUE (account, path)
                );
                CREATE INDEX item_parent ON item(account, parent, name);
                CREATE VIRTUAL TABLE item_fts USING fts5(
                    fname, fpath, content = 'item', content_rowid = 'rowid', tokenize = 'trigram'
                );
                CREATE TABLE item_fts_pending (id INTEGER PRIMARY KEY);
                CREATE TRIGGER item_fts_insert AFTER INSERT ON item BEGIN
                    INSERT INTO item_fts_pending(id) VALUES (new.rowid);
                END;
                CREATE TRIGGER item_fts_delete AFTER DELETE ON item BEGIN
                    INSERT INTO item_fts(item_fts, rowid, fname, fpath)
                        SELECT 'delete', old.rowid, old.fname, old.fpath
                        WHERE NOT EXISTS (SELECT 1 FROM item_fts_pending WHERE id = old.rowid);
                    DELETE FROM item_fts_pending WHERE id = old.rowid;
                END;
                CREATE TRIGGER item_fts_update AFTER UPDATE OF fname, fpath ON item
                WHEN old.fname IS NOT new.fname OR old.fpath IS NOT new.fpath BEGIN
                    INSERT INTO item_fts(item_fts, rowid, fname, fpath)
                        SELECT 'delete', old.rowid, old.fname, old.fpath
                        WHERE NOT EXISTS (SELECT 1 FROM item_fts_pending WHERE id = old.rowid);
                    INSERT OR IGNORE INTO item_fts_pending(id) VALUES (new.rowid);
                END;
                CREATE TABLE listing (
                    account TEXT NOT NULL,
                    path TEXT NOT NULL,
                    fetchedAt REAL NOT NULL,
                    complete INTEGER NOT NULL,
                    changeToken TEXT,
                    PRIMARY KEY (account, path)
                ) WITHOUT ROWID;
                CREATE TABLE blob (
                    digest TEXT NOT NULL PRIMARY KEY,
                    size INTEGER NOT NULL,
                    lastUsed REAL NOT NULL,
                    path TEXT NOT NULL
                );
                CREATE INDEX blob_lru ON blob(lastUsed);
                CREATE TABLE hierarchy (
                    account TEXT NOT NULL,
                    name TEXT NOT NULL,
                    generation INTEGER NOT NULL,
                    loadedAt REAL NOT NULL,
                    nodes INTEGER NOT NULL,
                    PRIMARY KEY (account, name)
                ) WITHOUT ROWID;
                CREATE TABLE hierarchy_node (
                    account TEXT NOT NULL,
                    name TEXT NOT NULL,
                    generation INTEGER NOT NULL,
                    path TEXT NOT NULL,
                    parent TEXT NOT NULL,
                    depth INTEGER NOT NULL,
                    json BLOB NOT NULL,
                    PRIMARY KEY (account, name, generation, path)
                ) WITHOUT ROWID;
                CREATE INDEX hierarchy_node_parent ON hierarchy_node(account, name, generation, parent);
                """)
        }
        // v2: the blob table's count and bytes kept in one row by triggers, so eviction reads
        // its totals in O(1) instead of scanning every blob on each save (at 100,000 blobs the
        // scan made a save cost milliseconds); the LRU index covers the tie-break on digest.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                CREATE TABLE blob_totals (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    count INTEGER NOT NULL,
                    bytes INTEGER NOT NULL
                );
                INSERT INTO blob_totals (id, count, bytes) SELECT 1, COUNT(*), COALESCE(SUM(size), 0) FROM blob;
                CREATE TRIGGER blob_totals_insert AFTER INSERT ON blob BEGIN
                    UPDATE blob_totals SET count = count + 1, bytes = bytes + new.size WHERE id = 1;
                END;
                CREATE TRIGGER blob_totals_delete AFTER DELETE ON blob BEGIN
                    UPDATE blob_totals SET count = count - 1, bytes = bytes - old.size WHERE id = 1;
                END;
                CREATE TRIGGER blob_totals_update AFTER UPDATE OF size ON blob BEGIN
                    UPDATE blob_totals SET bytes = bytes - old.size + new.size WHERE id = 1;
                END;
                DROP INDEX blob_lru;
                CREATE INDEX blob_lru ON blob(lastUsed, digest);
                """)
        }
        // v3: what providers verified about a server (ServerFactStore), by kind, server and user.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: """
                CREATE TABLE server_fact (
                    kind TEXT NOT NULL,
                    server TEXT NOT NULL,
                    user TEXT NOT NULL,
                    value BLOB NOT NULL,
                    learntAt REAL NOT NULL,
                    PRIMARY KEY (kind, server, user)
                ) WITHOUT ROWID;
                """)
        }
        // v4-transfer-jobs: the plans and progress of transfer jobs, and digests computed from source files (SQLiteTransferJobStore).
        migrator.registerMigration("v4-transfer-jobs") { db in
            try SQLiteTransferJobStore.createTables(db)
        }
        // v5: the sessions of chunked uploads, so that a cut upload resumes (UploadCheckpoints).
        migrator.registerMigration("v5-upload-checkpoints") { db in try UploadCheckpointTable.create(db) }
        // v6-sync-journal: the offline writes waiting for the server (SyncJournal), in order.
        migrator.registerMigration("v6-sync-journal") { db in try JournalSchema.create(db) }
        // v7-job-folder-etags: each folder's etag on both sides after a transfer job's last finished
        // run, where both sides' folder etags are recursive, so an unchanged subtree is not listed again.
        migrator.registerMigration("v7-job-folder-etags") { db in try SQLiteTransferJobStore.createFolderTable(db) }
        // v8-transfer-name-mappings: the names transfers mapped on their destinations (encoded, decoded,
        // normalised), so that a transfer the other way maps them back (SQLiteTransferJobStore.remember(names:…)).
        migrator.registerMigration("v8-transfer-name-mappings") { db in try SQLiteTransferJobStore.createNameTable(db) }
        return migrator
    }
}

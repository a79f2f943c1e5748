import Foundation
import GRDB
import NIOConcurrencyHelpers
import ProviderAPI

/// A local cache shared by every provider and account: item metadata, folder
/// listings, named hierarchies and a blob store of file contents.
///
/// One SQLite database (`cache.sqlite`, WAL mode) and one `blobs/` folder
/// live in `directory`. Every metadata row is keyed by the account
/// (`ProviderAccount.description`) and the path's exact UTF-8 bytes, so
/// several providers share one cache and names that differ only in their
/// Unicode normal form stay different items. Several tasks and several
/// processes may use one cache at once: writes are serialized by SQLite
/// (immediate transactions, a generous busy timeout), so `SQLITE_BUSY` never
/// reaches the caller.
public final class CacheStore: Sendable {
    /// The cache directory.
    package let directory: URL
    /// The contents store, keyed by digest.
    package let blobs: BlobStore

    let pool: DatabasePool
    private let hierarchies = NIOLockedValueBox<[HierarchyKey: CacheHierarchy]>([:])
    /// The live ``SyncJournal`` of each account (``journal(for:)``).
    let journals = NIOLockedValueBox<[PathKey: SyncJournal]>([:])

    /// Opens (creating) `directory/cache.sqlite` (DatabasePool, WAL, busy timeout so SQLITE_BUSY never reaches callers) and `directory/blobs/`.
    ///
    /// A folder it creates is `0700`, the database files and blobs `0600`; an existing
    /// `directory` keeps its mode.
    ///
    /// Opening also reconciles the blob store with its table: stray temporary
    /// files of dead writers are deleted, rows whose file is missing and files
    /// without a row are removed.
    ///
    /// Opening is the one synchronous database access of the cache, done once before the store
    /// is used: GRDB opens a pool and runs a migrator synchronously only, and a process keeps one
    /// store per folder behind a lock while it opens it (as the `strata` tool does), which an
    /// asynchronous initializer could not hold. Everything after opening goes through GRDB's
    /// async accessors.
    public init(directory: URL, blobLimits: BlobLimits = BlobLimits()) throws {
        self.directory = directory
        do {
            try PrivateFiles.makeFolder(directory)
            let database = directory.appendingPathComponent("cache.sqlite").path
            try PrivateFiles.makeFile(database)
            PrivateFiles.restrictIfPresent(database + "-wal")
            PrivateFiles.restrictIfPresent(database + "-shm")
            var configuration = Configuration()
            configuration.busyMode = .timeout(120)
            configuration.label = "SharedCache"
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            let pool = try DatabasePool(path: database, configuration: configuration)
            try CacheSchema.migrator.migrate(pool)
            try pool.write { db in try CacheSchema.flushFullTextIndex(db) }
            self.pool = pool
            self.blobs = try BlobStore(
                pool: pool, directory: directory.appendingPathComponent("blobs", isDirectory: true), limits: blobLimits)
        } catch {
            throw CacheStore.wrap(error)
        }
    }

    /// Forgets what the cache holds for `account`, or for every account when `account` is nil:
    /// item metadata, listings and hierarchies, the transfer jobs run from or to it, the digests
    /// computed from its files and its upload checkpoints (a cut copy or upload then starts over:
    /// only resumability is lost); with nil also every blob and every `ServerFact`.
    ///
    /// The ``SyncJournal``'s waiting entries and their kept bytes are never removed: they are the
    /// user's offline writes, and a ``CachedProvider`` still shows them (made from the entries) until
    /// they are replayed, or dropped with `SyncJournal.resolve(_:_:on:)`.
    ///
    /// - Returns: how many journal entries were kept (of `account`, or of every account).
    @discardableResult
    public func clear(account: ProviderAccount? = nil) async throws -> Int {
        let kept = try await write { db -> Int in
            try Self.clearMetadata(account: account?.storageKey, in: db)
            if let key = account?.storageKey {
                try db.execute(
                    sql: """
                        DELETE FROM transfer_job_action WHERE job IN
                        (SELECT id FROM transfer_job WHERE sourceAccount = ? OR destinationAccount = ?)
                        """, arguments: [key, key])
                try db.execute(sql: "DELETE FROM transfer_job WHERE sourceAccount = ? OR destinationAccount = ?", arguments: [key, key])
                try db.execute(
                    sql: "DELETE FROM transfer_job_folder WHERE sourceAccount = ? OR destinationAccount = ?", arguments: [key, key])
                for table in ["transfer_source_digest", "upload_checkpoint"] {
                    try db.execute(sql: "DELETE FROM \(table) WHERE account = ?", arguments: [key])
                }
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM journal WHERE account = ?", arguments: [key]) ?? 0
            }
            for table in ["server_fact", "transfer_job_action", "transfer_job", "transfer_job_folder", "transfer_source_digest", "upload_checkpoint"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM journal") ?? 0
        }
        if account == nil { try await blobs.reset() }
        return kept
    }

    /// Removes the cached metadata of `account` (nil: every account) and nothing else: what a change
    /// feed asking for a reset makes stale.
    func clearMetadata(account: ProviderAccount) async throws {
        let key = account.storageKey
        try await write { db in try Self.clearMetadata(account: key, in: db) }
    }

    private static func clearMetadata(account key: String?, in db: Database) throws {
        for table in ["item", "listing", "hierarchy", "hierarchy_node"] {
            if let key {
                try db.execute(sql: "DELETE FROM \(table) WHERE account = ?", arguments: [key])
            } else {
                try db.execute(sql: "DELETE FROM \(table)")
            }
        }
    }

    /// Counts of what the cache holds.
    package func stats() async throws -> CacheStats {
        try await read { db in
            let items = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0
            let listings = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM listing") ?? 0
            let blobs = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blob") ?? 0
            let bytes = try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM blob") ?? 0
            let accounts =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM (SELECT account FROM item UNION SELECT account FROM listing
                        UNION SELECT account FROM hierarchy)
                        """) ?? 0
            return CacheStats(items: items, listings: listings, blobs: blobs, blobBytes: bytes, accounts: accounts)
        }
    }

    /// The named hierarchy of `account`; the same object for the same name and account.
    package func hierarchy(named name: String, account: ProviderAccount) -> CacheHierarchy {
        let key = HierarchyKey(account: PathKey(account.storageKey), name: PathKey(name))
        return hierarchies.withLockedValue { table in
            if let existing = table[key] { return existing }
            let hierarchy = CacheHierarchy(pool: pool, name: name, account: account)
            table[key] = hierarchy
            return hierarchy
        }
    }

    // MARK: - Database access with errors mapped to ProviderError

    /// A read through GRDB's async accessor: the wait for a reader suspends the task instead of
    /// blocking a thread of the cooperative pool. `body` decodes what it reads (GRDB's `Row` is
    /// not `Sendable`). Runs to the end even when the calling task is cancelled (see ``uncancelled(_:)``).
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let pool = self.pool
        do { return try await Self.uncancelled { try await pool.read(body) } } catch { throw CacheStore.wrap(error) }
    }

    /// A write transaction through GRDB's async accessor, the full-text index flushed before it
    /// commits: the wait for the writer (another task's or another process's transaction)
    /// suspends the task instead of blocking a thread. Runs to the end even when the calling task
    /// is cancelled (see ``uncancelled(_:)``).
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let pool = self.pool
        do {
            return try await Self.uncancelled {
                try await pool.write { db in
                    let result = try body(db)
                    try CacheSchema.flushFullTextIndex(db)
                    return result
                }
            }
        } catch {
            throw CacheStore.wrap(error)
        }
    }

    /// Runs one database access in a task of its own, which the caller's cancellation does not reach,
    /// and waits for it.
    ///
    /// GRDB's async accessors give up when their task is cancelled (a `CancellationError` before the
    /// access, an interrupted statement and a rolled back transaction during it). The cache's
    /// accesses must not: they record what the server already did (a delete, a move, a committed
    /// blob) or answer from what the cache holds, and a cancelled caller that stops half-way
    /// (removing the hierarchy nodes of an interrupted load) must still clean up. So they run to
    /// the end as the synchronous accessors did; only the wait no longer holds a thread.
    static func uncancelled<T: Sendable>(_ access: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task { try await access() }.value
    }

    /// A `ProviderError` for any error of the store: a SQLite error is ``ProviderError/Code/io``
    /// (``ProviderError/Code/quotaExceeded`` for a full disk), local storage that failed, not a
    /// server, so a transfer does not send a file again over it; a file-system error is mapped by its
    /// `errno` (`ProviderError.wrap(_:fallback:request:)`), anything else is
    /// ``ProviderError/Code/unknown``.
    static func wrap(_ error: any Error) -> ProviderError {
        if let error = error as? ProviderError { return error }
        if let error = error as? DatabaseError {
            let code: ProviderError.Code = error.resultCode == .SQLITE_FULL ? .quotaExceeded : .io
            return ProviderError(code, "cache database: \(error.message ?? "\(error.resultCode)")", underlying: "\(error)")
        }
        var failure = ProviderError.wrap(error)
        failure.message = "cache: \(failure.message ?? "\(error)")"
        return failure
    }
}

/// The key of a named hierarchy in the store's table of live hierarchy objects.
struct HierarchyKey: Hashable, Sendable {
    var account: PathKey
    var name: PathKey
}

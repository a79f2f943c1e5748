import Foundation
import GRDB
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI
import ProviderKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// File contents keyed by digest, with least-recently-used eviction under a byte and a count limit.
///
/// Blobs live in `blobs/<first two hex digits>/<digest>`, with one row each in
/// the `blob` table (digest, size, last use, path). Every write goes to a
/// temporary file, is flushed and verified, then renamed into place and
/// registered in one database transaction, so a crash never leaves a torn
/// blob; opening the store deletes what a crash left behind, so the database
/// and the files agree. The key is the lowercase hex digest: the server's when
/// it gave one (verified), else the SHA-256 computed on insert.
package final class BlobStore: Sendable {
    /// The folder of the blobs.
    package let directory: URL

    let pool: DatabasePool
    let temp: BlobTempArea
    private let state: NIOLockedValueBox<BlobLimits>
    private let clock = NIOLockedValueBox<Double>(0)

    /// Opens the store and reconciles it with its table, synchronously: it runs inside
    /// ``CacheStore``'s synchronous initializer (see there why that one stays synchronous).
    init(pool: DatabasePool, directory: URL, limits: BlobLimits) throws {
        self.pool = pool
        self.directory = directory
        self.state = NIOLockedValueBox(limits)
        try PrivateFiles.makeFolder(directory)
        temp = try BlobTempArea(root: directory.appendingPathComponent("tmp", isDirectory: true))
        try reconcile()
    }

    /// The limits eviction keeps to.
    package var limits: BlobLimits { state.withLockedValue { $0 } }

    /// Changes the limits, evicting least-recently-used blobs at once if the store is over them.
    package func setLimits(_ limits: BlobLimits) async throws {
        state.withLockedValue { $0 = limits }
        _ = try await writeDiscarding { db, trash in try self.evict(keeping: nil, in: db, trash: &trash) }
    }

    /// Whether the store holds the blob `digest`.
    package func has(_ digest: String) async -> Bool {
        guard let key = Self.key(digest) else { return false }
        let row = try? await read { db in try String.fetchOne(db, sql: "SELECT path FROM blob WHERE digest = ?", arguments: [key]) }
        guard let relative = row.flatMap({ $0 }) else { return false }
        return PosixFile.regularFileSize(atPath: directory.appendingPathComponent(relative).path) != nil
    }

    /// Copies a file in; computes its SHA-256 when `digest` is nil, else verifies it (`algorithm` of the hex digest) and throws ProviderError(.integrity) on mismatch. Returns the key.
    @discardableResult
    package func save(file: URL, digest: String? = nil, algorithm: DigestAlgorithm = .sha256) async throws -> String {
        let writer = try await BlockingIO.run { try BlobWriter(store: self, expectedDigest: digest, algorithm: algorithm) }
        do {
            // The file is read and the blob written on the blocking thread pool, in one hop.
            let path = file.path
            try await BlockingIO.run { try PosixFile.open(path, flags: O_RDONLY).readChunks(of: 1 << 20) { try writer.write($0) } }
            return try await writer.finish()
        } catch {
            await BlockingIO.cleanUp { writer.abandon() }
            throw CacheStore.wrap(error)
        }
    }

    /// A DownloadSink that writes to a temporary file, verifies the digest at finish (or computes SHA-256), renames it into the store and registers it; `key` is set after finish.
    package func sink(expectedDigest: String? = nil, algorithm: DigestAlgorithm = .sha256) -> BlobSink {
        BlobSink(store: self, expectedDigest: expectedDigest, algorithm: algorithm)
    }

    /// The file of a blob, marking it most recently used; nil when absent.
    ///
    /// The file must be read, never modified or moved; it may be evicted once
    /// another blob is saved (an open descriptor keeps reading it).
    package func open(_ digest: String) async -> URL? {
        guard let key = Self.key(digest) else { return nil }
        let now = tick()
        let directory = self.directory
        let result: URL?? = try? await write { db -> URL? in
            guard let relative = try String.fetchOne(db, sql: "SELECT path FROM blob WHERE digest = ?", arguments: [key]) else {
                return nil
            }
            let url = directory.appendingPathComponent(relative)
            guard PosixFile.regularFileSize(atPath: url.path) != nil else {
                try db.execute(sql: "DELETE FROM blob WHERE digest = ?", arguments: [key])
                return nil
            }
            try db.execute(sql: "UPDATE blob SET lastUsed = ? WHERE digest = ?", arguments: [now, key])
            return url
        }
        return result.flatMap { $0 }
    }

    /// Removes a blob; removing an absent blob does nothing.
    package func remove(_ digest: String) async throws {
        guard let key = Self.key(digest) else { return }
        try await writeDiscarding { db, trash in
            if let relative = try String.fetchOne(db, sql: "SELECT path FROM blob WHERE digest = ?", arguments: [key]) {
                try db.execute(sql: "DELETE FROM blob WHERE digest = ?", arguments: [key])
                if let moved = self.discard(relative) { trash.append(moved) }
            }
        }
    }

    /// Removes every blob.
    package func reset() async throws {
        try await writeDiscarding { db, trash in
            let paths = try String.fetchAll(db, sql: "SELECT path FROM blob")
            try db.execute(sql: "DELETE FROM blob")
            for relative in paths {
                if let moved = self.discard(relative) { trash.append(moved) }
            }
        }
    }

    /// How many blobs the store holds.
    package var count: Int {
        get async { (try? await read { db in try Int.fetchOne(db, sql: "SELECT count FROM blob_totals") ?? 0 }) ?? 0 }
    }

    /// The bytes the blobs take.
    package var totalBytes: Int64 {
        get async { (try? await read { db in try Int64.fetchOne(db, sql: "SELECT bytes FROM blob_totals") ?? 0 }) ?? 0 }
    }

    // MARK: - Internals

    /// The store key of a digest: lowercase hex of 32 to 128 digits, else nil.
    static func key(_ digest: String) -> String? {
        let lowered = digest.lowercased()
        guard (32...128).contains(lowered.utf8.count),
            lowered.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { return nil }
        return lowered
    }

    /// The path of blob `key` relative to `directory`.
    static func relativePath(of key: String) -> String {
        String(key.prefix(2)) + "/" + key
    }

    /// A use time later than every earlier one of this process.
    func tick() -> Double {
        clock.withLockedValue { last in
            last = max(Date().timeIntervalSinceReferenceDate, last + 1e-6)
            return last
        }
    }

    /// A read through GRDB's async accessor, run to the end even when the caller is cancelled
    /// (as ``CacheStore``'s reads are).
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let pool = self.pool
        do { return try await CacheStore.uncancelled { try await pool.read(body) } } catch { throw CacheStore.wrap(error) }
    }

    /// A write transaction through GRDB's async accessor, run to the end even when the caller is
    /// cancelled: a blob renamed into place is registered, a discarded one unregistered.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let pool = self.pool
        do { return try await CacheStore.uncancelled { try await pool.write(body) } } catch { throw CacheStore.wrap(error) }
    }

    /// Moves a complete, verified temporary file into the store as `key`, registers it and evicts.
    func commit(temporary: URL, key: String, size: Int64) async throws {
        let relative = Self.relativePath(of: key)
        let final = directory.appendingPathComponent(relative)
        try PrivateFiles.makeFolder(final.deletingLastPathComponent())
        let now = tick()
        try await writeDiscarding { db, trash in
            try PosixFile.rename(temporary.path, final.path)
            try db.execute(
                sql: """
                    INSERT INTO blob (digest, size, lastUsed, path) VALUES (?, ?, ?, ?)
                    ON CONFLICT (digest) DO UPDATE SET size = excluded.size, lastUsed = excluded.lastUsed, path = excluded.path
                    """,
                arguments: [key, size, now, relative])
            try self.evict(keeping: key, in: db, trash: &trash)
        }
    }
}

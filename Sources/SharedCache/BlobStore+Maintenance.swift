import Foundation
import GRDB
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderKit

extension BlobStore {
    /// Evicts least-recently-used blobs (never `keeping`) until both limits hold; returns how many went.
    ///
    /// The evicted files are moved to `trash` (in this store's temporary
    /// area) inside the transaction, and deleted after it by
    /// ``writeDiscarding(_:)``: renaming is cheap, so the write lock is not
    /// held while the file system frees thousands of files.
    @discardableResult
    func evict(keeping: String?, in db: Database, trash: inout [URL]) throws -> Int {
        let limits = self.limits
        guard limits.maxBytes != nil || limits.maxCount != nil else { return 0 }
        guard let totals = try Row.fetchOne(db, sql: "SELECT count AS n, bytes FROM blob_totals") else { return 0 }
        var count: Int = totals["n"]
        var bytes: Int64 = totals["bytes"]
        func over() -> Bool {
            if let maxCount = limits.maxCount, count > maxCount { return true }
            if let maxBytes = limits.maxBytes, bytes > maxBytes { return true }
            return false
        }
        guard over() else { return 0 }
        var victims: [(key: String, path: String)] = []
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT digest, size, path FROM blob WHERE digest IS NOT ? ORDER BY lastUsed, digest", arguments: [keeping])
        while over(), let row = try cursor.next() {
            victims.append((row["digest"], row["path"]))
            count -= 1
            bytes -= row["size"] as Int64
        }
        for victim in victims {
            try db.execute(sql: "DELETE FROM blob WHERE digest = ?", arguments: [victim.key])
            if let moved = discard(victim.path) { trash.append(moved) }
        }
        return victims.count
    }

    /// Moves the blob file at `relative` out of the store into the temporary area; nil when it was already gone.
    func discard(_ relative: String) -> URL? {
        let trashFile = temp.newFile()
        do {
            try PosixFile.rename(directory.appendingPathComponent(relative).path, trashFile.path)
            return trashFile
        } catch {
            PosixFile.remove(directory.appendingPathComponent(relative).path)
            return nil
        }
    }

    /// A write transaction whose discarded files (`body`'s second argument) are deleted once it ends
    /// (committed or not), through GRDB's async accessor.
    func writeDiscarding<T: Sendable>(_ body: @escaping @Sendable (Database, inout [URL]) throws -> T) async throws -> T {
        let discarded = NIOLockedValueBox<[URL]>([])
        defer { for file in discarded.withLockedValue({ $0 }) { PosixFile.remove(file.path) } }
        return try await write { db in
            var trash: [URL] = []
            defer { discarded.withLockedValue { $0.append(contentsOf: trash) } }
            return try body(db, &trash)
        }
    }

    /// ``writeDiscarding(_:)`` with GRDB's synchronous accessor, for ``reconcile()`` alone: it runs
    /// while the store opens, in the synchronous initializer (see ``CacheStore/init(directory:blobLimits:)``).
    func writeDiscardingWhileOpening<T>(_ body: (Database, inout [URL]) throws -> T) throws -> T {
        var trash: [URL] = []
        defer { for file in trash { PosixFile.remove(file.path) } }
        do { return try pool.write { db in try body(db, &trash) } } catch { throw CacheStore.wrap(error) }
    }

    /// Makes the table and the files agree: removes dead writers' temporary
    /// files, rows whose file is missing or of the wrong size, and files without a row; then evicts to the limits.
    func reconcile() throws {
        temp.removeStrays()
        let fileManager = FileManager.default
        try writeDiscardingWhileOpening { db, trash in
            var onDisk: [PathKey: (path: String, size: Int64)] = [:]
            let shards = (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? []
            for shard in shards where shard.utf8.count == 2 {
                let folder = directory.appendingPathComponent(shard, isDirectory: true)
                for name in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [] {
                    let path = folder.appendingPathComponent(name).path
                    guard let size = PosixFile.regularFileSize(atPath: path) else { continue }
                    onDisk[PathKey(shard + "/" + name)] = (path, size)
                }
            }
            let rows = try Row.fetchAll(db, sql: "SELECT digest, size, path FROM blob")
            var registered = Set<PathKey>()
            for row in rows {
                let relative: String = row["path"]
                let key = PathKey(relative)
                if let file = onDisk[key], file.size == row["size"] as Int64 {
                    registered.insert(key)
                } else {
                    try db.execute(sql: "DELETE FROM blob WHERE digest = ?", arguments: [row["digest"] as String])
                }
            }
            for (key, file) in onDisk where !registered.contains(key) {
                PosixFile.remove(file.path)
            }
            try evict(keeping: nil, in: db, trash: &trash)
        }
    }
}

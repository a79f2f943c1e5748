import Foundation
import GRDB
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

extension CacheStore {
    /// Checks the whole cache and returns what is wrong (nothing when it is consistent).
    ///
    /// Runs SQLite's integrity check and the full-text index's, and checks that
    /// every blob row has its file, of its size and digest, and every blob
    /// file its row. Reads every blob: meant for tests and a `verify` command,
    /// not for every open.
    package func verify() async throws -> [String] {
        let blobRoot = blobs.directory
        let (found, rows) = try await read { db -> ([String], [(digest: String, size: Int64, path: String)]) in
            var problems: [String] = []
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            if integrity != ["ok"] { problems.append("integrity_check: \(integrity.joined(separator: "; "))") }
            let kept = try Row.fetchOne(db, sql: "SELECT count, bytes FROM blob_totals")
            let real = try Row.fetchOne(db, sql: "SELECT COUNT(*) AS count, COALESCE(SUM(size), 0) AS bytes FROM blob")
            if let kept, let real, kept["count"] as Int != real["count"] as Int || kept["bytes"] as Int64 != real["bytes"] as Int64 {
                problems.append("blob totals: kept \(kept["count"] as Int) blobs, \(kept["bytes"] as Int64) bytes; table has \(real["count"] as Int), \(real["bytes"] as Int64)")
            }
            // Rows are not Sendable: decoded here, inside the access.
            let rows = try Row.fetchAll(db, sql: "SELECT digest, size, path FROM blob").map { row in
                (digest: row["digest"] as String, size: row["size"] as Int64, path: row["path"] as String)
            }
            return (problems, rows)
        }
        var problems = found
        do {
            try await write { db in try db.execute(sql: "INSERT INTO item_fts(item_fts, rank) VALUES ('integrity-check', 1)") }
        } catch {
            problems.append("full-text index: \(error)")
        }
        var registered = Set<PathKey>()
        for row in rows {
            let key = row.digest
            registered.insert(PathKey(row.path))
            let path = blobRoot.appendingPathComponent(row.path).path
            guard let size = PosixFile.regularFileSize(atPath: path) else {
                problems.append("blob \(key): file missing")
                continue
            }
            if size != row.size { problems.append("blob \(key): \(size) bytes, row says \(row.size)") }
            let algorithm: DigestAlgorithm? = [32: .md5, 40: .sha1, 64: .sha256][key.utf8.count]
            if let algorithm, let digest = try? Self.digest(of: path, algorithm), digest != key {
                problems.append("blob \(key): content digest is \(digest)")
            }
        }
        let fileManager = FileManager.default
        for shard in (try? fileManager.contentsOfDirectory(atPath: blobRoot.path)) ?? [] where shard.utf8.count == 2 {
            for name in (try? fileManager.contentsOfDirectory(atPath: blobRoot.appendingPathComponent(shard).path)) ?? [] {
                if !registered.contains(PathKey(shard + "/" + name)) { problems.append("blob file \(shard)/\(name) has no row") }
            }
        }
        return problems
    }

    static func digest(of path: String, _ algorithm: DigestAlgorithm) throws -> String? {
        guard var digester = Digester(algorithm) else { return nil }
        try PosixFile.open(path, flags: O_RDONLY).readChunks(of: 1 << 20) { digester.update($0) }
        return digester.finalize()
    }
}

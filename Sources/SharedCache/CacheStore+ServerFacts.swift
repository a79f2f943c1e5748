import Foundation
import GRDB
import ProviderAPI
import ProviderKit

/// The cache keeps what providers verified about their servers (a WebDAV server's behaviour),
/// so that every process sharing the cache folder learns it once.
extension CacheStore: ServerFactStore {
    public func fact(_ kind: String, server: String, user: String) async throws -> ServerFact? {
        try await read { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT value, learntAt FROM server_fact WHERE kind = ? AND server = ? AND user = ?",
                arguments: [kind, server, user])
            guard let row else { return nil }
            let value: Data = row["value"]
            let learntAt: Double = row["learntAt"]
            return ServerFact(kind: kind, server: server, user: user, value: value, learntAt: Date(timeIntervalSince1970: learntAt))
        }
    }

    public func remember(_ fact: ServerFact) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO server_fact (kind, server, user, value, learntAt) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (kind, server, user) DO UPDATE SET value = excluded.value, learntAt = excluded.learntAt
                    """,
                arguments: [fact.kind, fact.server, fact.user, fact.value, fact.learntAt.timeIntervalSince1970])
        }
    }
}

extension CacheStore {
    /// Closes the database at the end of a process's work, its write-ahead log moved into the
    /// database and emptied first, so the next process opens the cache without replaying the log
    /// of this one (which a process that exits with the database open leaves behind, 280 kB after
    /// a first `strata` command: a few milliseconds of every later command's start). Nothing may
    /// use the store afterwards.
    package func close() {
        // GRDB closes the writer before its read-only readers, so SQLite's own checkpoint at the
        // last close never runs: the log is moved into the database and truncated here first.
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try? pool.close()
    }
}

import Foundation
import GRDB
import ProviderAPI

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

import Foundation
import GRDB
import ProviderAPI
import ProviderKit

/// Reads the facts kept in a cache folder (``CacheStore``'s `ServerFact`s) through one read-only
/// connection, without opening the store: no migration, no reconciliation of the blob store. A
/// command that only needs a server's kept profile before its first request reads it this way;
/// the store is opened when something is written.
package final class ServerFactReader: Sendable {
    private let queue: DatabaseQueue

    private init(queue: DatabaseQueue) { self.queue = queue }

    /// Opens the cache database of `directory` read-only, on the blocking thread pool.
    ///
    /// - Throws: when there is no database there or it cannot be opened this way: the caller then
    ///   opens the store (`CacheStore.open(directory:blobLimits:)`) and asks it.
    package static func open(directory: URL) async throws -> ServerFactReader {
        let database = directory.appendingPathComponent("cache.sqlite").path
        return try await BlockingIO.run {
            guard FileManager.default.fileExists(atPath: database) else {
                throw ProviderError(.notFound, "no cache database in \(directory.path)")
            }
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(5)
            configuration.label = "SharedCache.facts"
            return ServerFactReader(queue: try DatabaseQueue(path: database, configuration: configuration))
        }
    }

    /// The fact of `kind` about `server` and `user`, or `nil` when none is kept.
    ///
    /// - Throws: when the database cannot be read (an older schema without facts, say).
    package func fact(_ kind: String, server: String, user: String) async throws -> ServerFact? {
        let queue = queue
        return try await BlockingIO.run {
            try queue.read { db in
                let row = try Row.fetchOne(
                    db, sql: "SELECT value, learntAt FROM server_fact WHERE kind = ? AND server = ? AND user = ?",
                    arguments: [kind, server, user])
                guard let row else { return nil }
                let value: Data = row["value"]
                let learntAt: Double = row["learntAt"]
                return ServerFact(kind: kind, server: server, user: user, value: value, learntAt: Date(timeIntervalSince1970: learntAt))
            }
        }
    }

    /// Closes the connection (at the end of a command).
    package func close() {
        try? queue.close()
    }
}

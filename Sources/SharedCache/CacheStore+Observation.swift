import Foundation
import GRDB
import ProviderAPI

extension CacheStore {
    /// Live change sets of a folder's cached children.
    ///
    /// The first change set holds the current children (all of them
    /// inserted); each later one follows a committed change of the cache that
    /// altered the children, sorted by name. Cancel the iterating task (or drop
    /// the stream) to stop observing. Changes committed through this store are
    /// seen at once; other connections' (another process's) within a quarter second.
    package func observeListing(of folder: ItemPath, account: ProviderAccount) -> AsyncThrowingStream<CacheChangeSet, any Error> {
        let key = account.storageKey
        let folderKey = folder.storageKey
        return observeRows { db in
            try Data.fetchAll(
                db, sql: "SELECT json FROM item WHERE account = ? AND parent = ? AND path <> '/' ORDER BY name, path",
                arguments: [key, folderKey])
        }
    }

    /// Live change sets of a query's results.
    ///
    /// As ``observeListing(of:account:)``, for ``search(_:under:account:limit:)``'s results, sorted by name.
    package func observe(_ query: Query, under folder: ItemPath, account: ProviderAccount) -> AsyncThrowingStream<CacheChangeSet, any Error> {
        let key = account.storageKey
        let coding = ItemCoding()
        return observeRows { db in
            // Read the item table whole-region so every item change re-runs the query.
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item WHERE account = ?", arguments: [key])
            let items = try Self.search(query, under: folder, account: key, limit: nil, in: db)
                .sorted { ChangeSetDiffer.bytewise($0, $1) }
            return try items.map { try coding.encode($0) }
        }
    }

    private func observeRows(_ fetch: @escaping @Sendable (Database) throws -> [Data]) -> AsyncThrowingStream<CacheChangeSet, any Error> {
        let pool = self.pool
        let databasePath = directory.appendingPathComponent("cache.sqlite").path
        let (stream, continuation) = AsyncThrowingStream<CacheChangeSet, any Error>.makeStream(bufferingPolicy: .unbounded)
        let task = Task {
            let (triggers, trigger) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            // This process's commits to the items, at once.
            let local = DatabaseRegionObservation(tracking: Table("item")).start(
                in: pool, onError: { _ in trigger.yield() }, onChange: { _ in trigger.yield() })
            // Other processes' commits, by polling a connection's data_version.
            let remote = Task { await Self.watchDataVersion(path: databasePath, trigger: trigger) }
            defer {
                local.cancel()
                remote.cancel()
                trigger.finish()
            }
            let coding = ItemCoding()
            var differ = ChangeSetDiffer()
            trigger.yield()
            do {
                for await _ in triggers {
                    let rows = try await pool.read { db in try fetch(db) }
                    let entries = try rows.map { json in (item: try coding.decode(json), json: json) }
                    if let change = differ.next(entries) { continuation.yield(change) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: CacheStore.wrap(error))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Yields `trigger` whenever another connection (another process included) commits, checking every `interval`.
    private static func watchDataVersion(path: String, trigger: AsyncStream<Void>.Continuation, interval: Duration = .milliseconds(250)) async {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        // Opening a connection is synchronous in GRDB (it has no async opener); its reads below are async
        // and, unlike the store's, end with the observing task.
        guard let watcher = try? DatabaseQueue(path: path, configuration: configuration) else { return }
        var last = try? await watcher.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            let version = try? await watcher.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
            if let version, version != last {
                last = version
                trigger.yield()
            }
        }
    }
}

import Foundation
import GRDB
import ProviderAPI

extension CacheStore {
    /// Live change sets of a folder's cached children.
    ///
    /// The first change set holds the current children (all of them
    /// inserted); each later one follows a committed change of the cache that
    /// altered the children, sorted by name. Cancel the iterating task (or drop
    /// the stream) to stop observing. Changes made through this process's
    /// stores are seen at once; another process's changes are seen on the next
    /// change made here.
    public func observeListing(of folder: ItemPath, account: ProviderAccount) -> AsyncThrowingStream<CacheChangeSet, any Error> {
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
    public func observe(_ query: Query, under folder: ItemPath, account: ProviderAccount) -> AsyncThrowingStream<CacheChangeSet, any Error> {
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
        let (stream, continuation) = AsyncThrowingStream<CacheChangeSet, any Error>.makeStream(bufferingPolicy: .unbounded)
        let task = Task {
            let coding = ItemCoding()
            var differ = ChangeSetDiffer()
            let observation = ValueObservation.tracking { db in try fetch(db) }
            do {
                for try await rows in observation.values(in: pool, scheduling: .async(onQueue: .global())) {
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
}

import Foundation
import ProviderAPI

extension CachedProvider {
    /// Brings the cache up to date from the provider's change feed, fetching only what changed
    /// instead of listing folders again.
    ///
    /// The first call records where the feed stands (the token is kept with the cached root); each
    /// later call applies the changes since: new and modified items are stored, deleted ones
    /// removed, moved ones moved. A feed that asks for a reset drops this account's cached
    /// metadata, so the next reads fetch it afresh.
    ///
    /// - Returns: the number of changes applied, or `nil` when the provider has no change feed.
    @discardableResult
    package func refreshChanges() async throws -> Int? {
        guard base.capabilities.supports(.changes) else { return nil }
        let root = try await store.item(at: .root, account: account)?.item
        guard let raw = root?.properties[CacheMarks.changeToken] else {
            let start = try await base.changes(since: nil)
            try await keepFeedToken(start.next, root: root)
            return 0
        }
        var token = ChangeToken(raw)
        var applied = 0
        // The paths waiting journal entries answer for keep the journal's view until they are replayed.
        let overlay = try await journal.overlay { _ in false }
        for _ in 0..<1000 {
            let batch = try await base.changes(since: token)
            if batch.resetRequired {
                try await store.clearMetadata(account: account)
                try await keepFeedToken(batch.next, root: nil)
                return applied
            }
            for change in batch.changes {
                guard overlay.owner(of: change.path) == .server, change.previousPath.map({ overlay.owner(of: $0) == .server }) ?? true else {
                    applied += 1
                    continue
                }
                switch change.kind {
                case .deleted:
                    try await store.removeItem(at: change.path, account: account)
                case .moved:
                    if let previous = change.previousPath { try await store.moveItem(from: previous, to: change.path, account: account) }
                    if let item = change.item { try await store.saveItem(item, account: account) }
                case .created, .modified:
                    if let item = change.item { try await store.saveItem(item, account: account) }
                }
                applied += 1
            }
            token = batch.next
            if !batch.hasMore { break }
        }
        try await keepFeedToken(token, root: try await store.item(at: .root, account: account)?.item)
        return applied
    }

    /// Keeps the feed's position with the cached root item.
    private func keepFeedToken(_ token: ChangeToken, root: Item?) async throws {
        var item = root ?? Item(path: .root, kind: .folder)
        item.properties[CacheMarks.changeToken] = token.rawValue
        try await store.saveItem(item, account: account)
    }
}

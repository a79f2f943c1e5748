import Foundation
import ProviderAPI

/// Whether a ``CachedProvider`` records writes in its ``SyncJournal`` instead of sending them.
public enum OfflineWrites: String, Sendable, Hashable, CaseIterable {
    /// Writes go to the server; when it cannot be reached they fail (the default, as before the journal).
    case off
    /// Writes go to the server; when it cannot be reached (`CachedProvider.isOffline(_:)`) they are
    /// recorded in the journal and shown in the cached view as pending. While the journal holds an
    /// entry on an overlapping path, a new write on it is recorded too, so it stays in order.
    case whenUnreachable
    /// Explicit offline mode: every write is recorded in the journal without asking the server.
    case always
}

extension CachedProvider {
    /// The journal of this provider's account in its cache (shared by every provider of the account on this store).
    public var journal: SyncJournal { store.journal(for: account) }

    /// Replays the journal on the provider behind the cache (`SyncJournal.replay(on:)`).
    public func replayJournal() async throws -> JournalReplayReport {
        try await journal.replay(on: base)
    }

    /// Resolves journal entry `id` on the provider behind the cache (`SyncJournal.resolve(_:_:on:)`).
    @discardableResult
    public func resolveJournal(_ id: Int64, _ resolution: JournalResolution) async throws -> JournalEntry.State? {
        try await journal.resolve(id, resolution, on: base)
    }

    /// A write on `paths`: `record`ed in the journal at once when ``journals(_:)`` says so; else
    /// sent by `online` (which also updates the cache), unless the policy answers from the cache
    /// alone; and `record`ed after all when `online` failed because the server could not be reached
    /// and `offlineWrites` allow it (``journalsAfter(_:source:)``).
    func write<Result>(
        at paths: [ItemPath], source: (any UploadSource)? = nil, record: () async throws -> Result, online: () async throws -> Result
    ) async throws -> Result {
        if try await journals(paths) { return try await record() }
        guard policy.mode != .cacheOnly else { throw notCached("writing") }
        do {
            return try await online()
        } catch where journalsAfter(error, source: source) {
            return try await record()
        }
    }

    /// Whether a write on `paths` goes straight to the journal: always in explicit offline mode,
    /// and while a journaled entry on an overlapping path waits (so writes stay in order).
    func journals(_ paths: [ItemPath]) async throws -> Bool {
        switch offlineWrites {
        case .off: return false
        case .always: return true
        case .whenUnreachable:
            return try await journal.holds(paths)
        }
    }

    /// Whether a write that failed with `error` is recorded in the journal instead: the server could
    /// not be reached and `offlineWrites` allow it (an upload only from a source that can be read again).
    func journalsAfter(_ error: any Error, source: (any UploadSource)? = nil) -> Bool {
        guard offlineWrites != .off, Self.isOffline(error) else { return false }
        return source?.isReplayable ?? true
    }
}

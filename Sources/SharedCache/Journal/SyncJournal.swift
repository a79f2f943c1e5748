import Foundation
import GRDB
import NIOConcurrencyHelpers
import ProviderAPI

/// The durable journal of one account's offline writes, kept in the cache database.
///
/// A ``CachedProvider`` whose `CachedProvider.offlineWrites` allow it records a write here
/// instead of failing when the server cannot be reached (or always, in explicit offline mode):
/// create folder, upload, delete, move or rename, and copy. Each is committed before the call
/// returns, with the item's metadata as last seen (etag, id, size, modified time) and, for an
/// upload, a flushed copy of the bytes; the cached view shows it at once, items marked
/// ``CacheMarks/pending``.
///
/// `replay(on:)` applies the entries in order when the server is back. Before acting it checks
/// the server's item against the recorded copy (an upload sends `If-Match` where the provider
/// declares `preconditions`, which the conformance suite holds it to), and follows the ownCloud
/// rules: matching → act; changed on the server, or the target folder gone → a
/// ``JournalConflict`` and nothing changed on the server; quota exceeded, full disk, server
/// errors → the entry is kept and reported. `resolve(_:_:on:)` settles a conflict.
///
/// A new action on an item with a pending entry folds into that entry and keeps its first
/// recorded copy: two uploads of one file are one upload, an upload then a delete of a new file
/// is nothing, a rename of a pending upload is an upload under the new name, a move of a moved
/// item is one move, a delete of a moved item deletes its source.
///
/// A process killed at any point loses no recorded action and performs none twice: an entry is
/// marked ``JournalEntry/State/replaying`` before it is sent, and a replay that finds an entry in
/// that state checks what the server holds (the upload's size and digest, the source and
/// destination of a move) before acting again. One replay runs at a time per cache directory
/// (an advisory lock the kernel releases when a process dies).
///
/// ```swift
/// let cached = CachedProvider(wrapping: dav, store: store, offlineWrites: .whenUnreachable)
/// _ = try await cached.upload(DataSource(Data("draft".utf8)), to: "/Notes", name: "a.txt", options: UploadOptions())
/// // … later, online again:
/// let report = try await cached.replayJournal()
/// for conflict in report.conflicts { try await cached.resolveJournal(conflict.entryID, .keepMine) }
/// ```
public final class SyncJournal: Sendable {
    /// The account whose writes the journal holds.
    package let account: ProviderAccount
    /// The cache the journal lives in.
    package let store: CacheStore

    /// The folder of kept upload bytes: `journal/` in the cache directory.
    let folder: URL
    let accountKey: String
    private let subscribers = NIOLockedValueBox<[UUID: AsyncStream<JournalEvent>.Continuation]>([:])
    /// Serializes this process's replays and resolutions of the journal (the file lock covers other processes).
    let replayGate = ReplayGate()

    init(store: CacheStore, account: ProviderAccount) {
        self.store = store
        self.account = account
        self.accountKey = account.storageKey
        self.folder = store.directory.appendingPathComponent("journal", isDirectory: true)
    }

    /// The entries waiting, in replay order (pending, in conflict, failed, and any left replaying by a dead process).
    public func entries() async throws -> [JournalEntry] {
        let key = accountKey
        return try await store.read { db in try JournalSchema.rows(account: key, in: db).map(\.entry) }
    }

    /// Whether a waiting entry's paths (``JournalAction/paths``) overlap any of `paths` (at, above or
    /// below). An empty journal costs one indexed lookup; otherwise only the actions are decoded.
    package func holds(_ paths: [ItemPath]) async throws -> Bool {
        let key = accountKey
        return try await store.read { db in
            let actions = try Data.fetchCursor(db, sql: "SELECT action FROM journal WHERE account = ? ORDER BY id", arguments: [key])
            let decoder = JSONDecoder()
            while let data = try actions.next() {
                let action = try decoder.decode(JournalAction.self, from: data)
                if SyncJournal.overlaps(action.paths, paths) { return true }
            }
            return false
        }
    }

    /// The entry `id` of this account, or nil when there is none (replayed, dropped, or another account's).
    public func entry(_ id: Int64) async throws -> JournalEntry? {
        let key = accountKey
        return try await store.read { db in try JournalSchema.row(id: id, in: db) }.flatMap { $0.entry.account == key ? $0.entry : nil }
    }

    /// The conflicts waiting for `resolve(_:_:on:)`, in entry order.
    public func conflicts() async throws -> [JournalConflict] {
        try await entries().compactMap { $0.state == .conflict ? $0.conflict : nil }
    }

    /// How many entries wait.
    public func count() async throws -> Int {
        let key = accountKey
        return try await store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM journal WHERE account = ?", arguments: [key]) ?? 0 }
    }

    /// The kept bytes of an upload entry, to read (never to modify); nil for other entries.
    public func contentFile(of id: Int64) async throws -> URL? {
        let folder = self.folder
        let name = try await store.read { db in try JournalSchema.row(id: id, in: db)?.content }
        return name.map { folder.appendingPathComponent($0) }
    }

    /// The journal's events from now on: each recorded action, replayed entry, conflict, failure
    /// and resolution of this process, in order. The stream ends when the iterating task is cancelled.
    public func events() -> AsyncStream<JournalEvent> {
        let (stream, continuation) = AsyncStream<JournalEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        subscribers.withLockedValue { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLockedValue { $0[id] = nil } }
        return stream
    }

    /// Sends `event` to every subscriber.
    func publish(_ event: JournalEvent) {
        for continuation in subscribers.withLockedValue({ Array($0.values) }) { continuation.yield(event) }
    }
}

extension CacheStore {
    /// The sync journal of `account` in this cache; the same object for the same account, so
    /// every ``CachedProvider`` of the account shares its ``SyncJournal/events()``.
    package func journal(for account: ProviderAccount) -> SyncJournal {
        let key = PathKey(account.storageKey)
        return journals.withLockedValue { table in
            if let existing = table[key] { return existing }
            let journal = SyncJournal(store: self, account: account)
            table[key] = journal
            return journal
        }
    }
}

import Foundation
import ProviderAPI
import SharedCache

/// Tells what a write command left in the sync journal instead of on the server: the entries it
/// added, the pending entries it folded into, and those it cancelled (a folder made offline and
/// deleted again).
struct JournalWatch {
    /// One change of the journal, as the write commands print it (`--json`: as `rm` prints it).
    struct Change: Encodable, Equatable {
        /// `recorded`, `folded` (into an entry that was pending already) or `cancelled`.
        var change: String
        /// The entry's id (`strata resolve ID`).
        var id: Int64
        /// The action's kind: `createFolder`, `upload`, `delete`, `move` or `copy`.
        var action: String
        /// The path the action writes.
        var path: String
        /// The source of a move or copy.
        var source: String?

        /// The line printed for it: `pending #3 upload /a.txt (5 bytes)`.
        func line(_ summary: String) -> String {
            switch change {
            case "cancelled": return "cancelled #\(id) \(summary): made offline, nothing to send"
            case "folded": return "pending #\(id) \(summary) (folded into the pending entry)"
            default: return "pending #\(id) \(summary)"
            }
        }
    }

    private let journal: SyncJournal?
    private let before: [Int64: JournalEntry]
    private let mode: OfflineWrites

    /// Notes the journal's entries before a write through `provider` (nothing when it journals no write).
    static func start(_ provider: any StorageProvider) async throws -> JournalWatch {
        guard let cached = provider as? CachedProvider, cached.offlineWrites != .off else {
            return JournalWatch(journal: nil, before: [:], mode: .off)
        }
        let entries = try await cached.journal.entries()
        return JournalWatch(
            journal: cached.journal, before: Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }),
            mode: cached.offlineWrites)
    }

    /// The changes since ``start(_:)``, in entry order; printed as text unless `json`.
    ///
    /// When the write was journaled while the command was not `--offline` (`--queue-offline`), a
    /// warning on standard error says the server was not written.
    @discardableResult
    func finish(json: Bool) async throws -> [Change] {
        guard let journal else { return [] }
        let after = try await journal.entries()
        var changes: [(Change, String)] = []
        let ids = Set(after.map(\.id))
        for entry in after {
            if let old = before[entry.id] {
                guard old.action != entry.action || old.recorded != entry.recorded else { continue }
                changes.append((Self.change("folded", entry), entry.action.summary))
            } else {
                changes.append((Self.change("recorded", entry), entry.action.summary))
            }
        }
        for entry in before.values.sorted(by: { $0.id < $1.id }) where !ids.contains(entry.id) {
            changes.append((Self.change("cancelled", entry), entry.action.summary))
        }
        if !json { for (change, summary) in changes { Output.line(change.line(summary)) } }
        if mode == .whenUnreachable, !changes.isEmpty {
            Output.error("strata: not written to the server: the write waits in the sync journal ('strata pending TARGET' lists it, 'strata replay TARGET' sends it)")
        }
        return changes.map(\.0)
    }

    private static func change(_ kind: String, _ entry: JournalEntry) -> Change {
        Change(
            change: kind, id: entry.id, action: entry.action.kind.rawValue, path: entry.action.path.description,
            source: entry.action.source?.description)
    }
}

extension StorageProvider {
    /// ``StorageProvider/itemIfExists(at:)``; offline (through a ``CachedProvider`` that cannot reach
    /// the server), an item the cache has no entry for is looked up in its folder's cached listing,
    /// so that a complete listing without it means it does not exist, and a folder whose own
    /// listing is cached exists.
    func lookUp(_ path: ItemPath) async throws -> Item? {
        do {
            return try await itemIfExists(at: path)
        } catch where self is CachedProvider && CachedProvider.isOffline(error) && !path.isRoot {
            if let siblings = try? await listAll(path.parent) { return siblings.first { $0.name.utf8.elementsEqual(path.name.utf8) } }
            if (try? await list(path, page: PageRequest(limit: 1))) != nil { return Item(path: path, kind: .folder) }
            throw error
        }
    }
}

import Foundation
import GRDB
import ProviderAPI

/// What a ``SyncJournal``'s waiting entries do to the view of the server, laid over every answer of a
/// ``CachedProvider`` until they are replayed or dropped.
///
/// Each entry shows a path (a new folder, an upload, the destination of a move or copy) or hides one
/// (a delete, the source of a move), with everything below it; the last entry covering a path wins.
/// A path the journal shows is answered from the cached view (where the recording put it, marked
/// ``CacheMarks/pending``), or made from the entry itself when the cache lost it (a `cache clear`);
/// a hidden path is not found; any other path is the server's. An empty journal costs one indexed
/// query and changes nothing.
struct JournalOverlay: Sendable {
    /// Who answers for a path.
    enum Owner: Sendable, Equatable {
        /// The server (the journal does not touch the path).
        case server
        /// Nobody: a waiting delete or move took it away.
        case hidden
        /// The cached view: a waiting entry made or moved the path (or a folder above it) at `root`.
        case journal(entry: Int64, root: ItemPath)
    }

    /// One path an entry shows or hides, in entry order.
    struct Effect: Sendable {
        var path: ItemPath
        var shows: Bool
        var entry: JournalEntry
    }

    /// The effects, in entry order.
    let effects: [Effect]
    /// The items shown at effect paths that were asked for when loading, as the cached view holds them (marked pending).
    let shown: [PathKey: Item]

    /// An overlay with no entries.
    static let empty = JournalOverlay(effects: [], shown: [:])

    /// Whether no entry waits.
    var isEmpty: Bool { effects.isEmpty }

    /// Who answers for `path`: the last effect at or above it decides.
    func owner(of path: ItemPath) -> Owner {
        guard !isEmpty else { return .server }
        var owner = Owner.server
        for effect in effects where Self.within(path, effect.path) {
            owner = effect.shows ? .journal(entry: effect.entry.id, root: effect.path) : .hidden
        }
        return owner
    }

    /// The paths the entries show (new folders and uploads, destinations of moves and copies) that
    /// still answer to them (no later entry hid or replaced them), each once.
    var shownRoots: [ItemPath] {
        var seen = Set<PathKey>()
        return effects.compactMap { effect in
            guard effect.shows, owner(of: effect.path) == .journal(entry: effect.entry.id, root: effect.path),
                seen.insert(PathKey(effect.path)).inserted
            else { return nil }
            return effect.path
        }
    }

    /// The item the journal shows at `path`, when `path` is the root of a shown effect and was loaded.
    func item(at path: ItemPath) -> Item? {
        shown[PathKey(path)]
    }

    /// The children of `folder` as `items` gives them (the server's, or the cached view's), with the
    /// journal laid over: hidden ones dropped, the journal's own in place of the server's, and the
    /// journal's new children added when `addingNew` (the first page of a listing).
    func children(_ items: [Item], of folder: ItemPath, addingNew: Bool = true) -> [Item] {
        guard !isEmpty else { return items }
        var seen = Set<PathKey>()
        var answer: [Item] = []
        answer.reserveCapacity(items.count)
        for item in items {
            switch owner(of: item.path) {
            case .hidden: continue
            case .server: answer.append(item)
            case .journal(_, let root):
                if Self.same(root, item.path) {
                    guard let mine = self.item(at: item.path) else { continue }
                    answer.append(mine)
                } else {
                    answer.append(item)
                }
            }
            seen.insert(PathKey(item.path))
        }
        guard addingNew else { return answer }
        for effect in effects where effect.shows && Self.same(effect.path.parent, folder) && !effect.path.isRoot {
            let key = PathKey(effect.path)
            guard !seen.contains(key), owner(of: effect.path) == .journal(entry: effect.entry.id, root: effect.path),
                let mine = shown[key]
            else { continue }
            seen.insert(key)
            answer.append(mine)
        }
        return answer
    }

    /// Items from anywhere (a search) with the journal laid over: hidden ones dropped, the journal's own in place of the server's.
    func items(_ items: [Item]) -> [Item] {
        guard !isEmpty else { return items }
        return items.compactMap { item in
            switch owner(of: item.path) {
            case .hidden: return nil
            case .server: return item
            case .journal(_, let root): return Self.same(root, item.path) ? self.item(at: item.path) : item
            }
        }
    }

    /// The items of a server answer that may be kept in the cache: those the journal does not answer for.
    func serverOwned(_ items: [Item]) -> [Item] {
        guard !isEmpty else { return items }
        return items.filter { owner(of: $0.path) == .server }
    }

    // MARK: - Loading

    /// Reads the entries of `account` (one indexed query) and, when there are any, the cached items at
    /// the paths they show for which `wanted` holds.
    static func load(account key: String, wanted: @escaping @Sendable (ItemPath) -> Bool, in db: Database) throws -> JournalOverlay {
        let rows = try JournalSchema.rows(account: key, in: db)
        guard !rows.isEmpty else { return .empty }
        var effects: [Effect] = []
        for row in rows {
            let entry = row.entry
            switch entry.action {
            case .createFolder(let path), .upload(let path, _):
                effects.append(Effect(path: path, shows: true, entry: entry))
            case .delete(let path):
                effects.append(Effect(path: path, shows: false, entry: entry))
            case .move(let from, let to):
                effects.append(Effect(path: from, shows: false, entry: entry))
                effects.append(Effect(path: to, shows: true, entry: entry))
            case .copy(_, let to):
                effects.append(Effect(path: to, shows: true, entry: entry))
            }
        }
        let coding = ItemCoding()
        var shown: [PathKey: Item] = [:]
        for effect in effects where effect.shows && wanted(effect.path) {
            let cached = try Row.fetchOne(
                db, sql: "SELECT json FROM item WHERE account = ? AND path = ?", arguments: [key, effect.path.storageKey]
            ).map { try coding.item(in: $0) }
            shown[PathKey(effect.path)] = marked(cached ?? made(by: effect.entry, at: effect.path), entry: effect.entry.id)
        }
        return JournalOverlay(effects: effects, shown: shown)
    }

    /// The item an entry shows at `path`, made from the entry alone (the cached view lost it).
    static func made(by entry: JournalEntry, at path: ItemPath) -> Item {
        switch entry.action {
        case .upload(_, let content):
            var item = Item(
                path: path, kind: .file, size: content.size, modified: content.modified ?? entry.recordedAt, mimeType: content.mimeType,
                digests: [.sha256: content.sha256])
            if let id = entry.recorded?.id { item.id = id }
            return item
        case .move, .copy:
            guard var item = entry.recorded else { return Item(path: path, kind: .file) }
            item.path = path
            if entry.action.kind == .copy { item.id = path.storageKey }
            return item
        case .createFolder, .delete:
            return Item(path: path, kind: .folder, modified: entry.recordedAt)
        }
    }

    /// `item` marked as shown by entry `id` (pending, not from the server).
    static func marked(_ item: Item, entry id: Int64) -> Item {
        var item = item
        item.properties[CacheMarks.pending] = "true"
        item.properties[CacheMarks.journalEntry] = String(id)
        item.properties[CacheMarks.stale] = nil
        item.properties[CacheMarks.fetchedAt] = nil
        return item
    }

    static func same(_ a: ItemPath, _ b: ItemPath) -> Bool { PathKey(a) == PathKey(b) }

    /// Whether `path` is `ancestor` or below it.
    static func within(_ path: ItemPath, _ ancestor: ItemPath) -> Bool {
        same(path, ancestor) || ancestor.isRoot || path.storageKey.utf8.starts(with: (ancestor.storageKey + "/").utf8)
    }
}

extension SyncJournal {
    /// The journal laid over answers about the paths for which `wanted` holds (see ``JournalOverlay``).
    func overlay(showing wanted: @escaping @Sendable (ItemPath) -> Bool) async throws -> JournalOverlay {
        let key = accountKey
        return try await store.read { db in try JournalOverlay.load(account: key, wanted: wanted, in: db) }
    }
}

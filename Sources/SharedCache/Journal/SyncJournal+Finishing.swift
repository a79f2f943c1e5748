import Foundation
import GRDB
import ProviderAPI
import ProviderKit

/// Removing entries: after a replay, or as a resolution says; and keeping mine under a new name.
extension SyncJournal {
    /// What removing an entry does to the cached view.
    enum ViewChange: Sendable {
        /// The action is on the server: its pending items take the server's answer.
        case replayed
        /// The action is dropped: its pending items go (the server's state shows at the next read).
        case forget
        /// The action is dropped and the server's items at its paths (nil: none) replace what the cache shows.
        case theirs([ItemPath: Item?])
    }

    /// Removes `entry` and applies `view` to the cached view, in one transaction; later entries
    /// whose recorded copy was this entry's pending item take `server` instead. `alsoShow` then
    /// puts the server's items at other paths (nil: none there) into the cached view.
    func finish(_ entry: JournalEntry, server: Item?, view: ViewChange, alsoShow: [ItemPath: Item?] = [:]) async throws {
        let key = accountKey
        let id = entry.id
        let content = try await store.write { db -> String? in
            let row = try JournalSchema.row(id: id, in: db)
            try JournalSchema.delete(id: id, in: db)
            let work = RecordingWork(key: key)
            func madeHere(_ path: ItemPath) throws -> Bool {
                guard let cached = try work.cached(path, db) else { return false }
                return cached.properties[CacheMarks.journalEntry] == String(id)
            }
            func unmarkedByOthers(_ path: ItemPath) throws -> Bool {
                guard let cached = try work.cached(path, db) else { return false }
                return cached.properties[CacheMarks.pending] == nil
            }
            var replacement: [ItemPath: Item?] = [:]
            switch view {
            case .replayed:
                let target = entry.action.path
                switch entry.action {
                case .delete(let path):
                    if try unmarkedByOthers(path) { try CacheStore.removeSubtree(path.storageKey, bounds: path.descendantRange, account: key, in: db) }
                default:
                    if let source = entry.action.source, entry.action.kind == .move, try unmarkedByOthers(source) {
                        try CacheStore.removeSubtree(source.storageKey, bounds: source.descendantRange, account: key, in: db)
                    }
                    if let server {
                        if Self.same(server.path, target) {
                            if try madeHere(target) { try work.save(server, db) }
                        } else {
                            // Kept under another name: the pending item goes, the server's takes its new place.
                            if try madeHere(target) {
                                try CacheStore.removeSubtree(target.storageKey, bounds: target.descendantRange, account: key, in: db)
                            }
                            try work.save(server, db)
                        }
                    }
                }
                replacement[target] = server
            case .forget:
                for path in entry.action.paths where try madeHere(path) {
                    try CacheStore.removeSubtree(path.storageKey, bounds: path.descendantRange, account: key, in: db)
                }
            case .theirs(let items):
                for (path, item) in items {
                    if let item {
                        try work.save(item, db)
                    } else {
                        try CacheStore.removeSubtree(path.storageKey, bounds: path.descendantRange, account: key, in: db)
                    }
                }
                replacement = items
            }
            for (path, item) in alsoShow {
                if let item {
                    try work.save(item, db)
                } else if try unmarkedByOthers(path) || madeHere(path) {
                    try CacheStore.removeSubtree(path.storageKey, bounds: path.descendantRange, account: key, in: db)
                }
            }
            // Later entries that recorded this entry's pending item now record what the server holds.
            let mark = String(id)
            for var later in try JournalSchema.rows(account: key, in: db) where later.entry.id > id {
                var changed = false
                if let recorded = later.entry.recorded, recorded.properties[CacheMarks.journalEntry] == mark {
                    later.entry.recorded = replacement.first { Self.same($0.key, recorded.path) }?.value ?? nil
                    changed = true
                }
                if let recorded = later.entry.recordedDestination, recorded.properties[CacheMarks.journalEntry] == mark {
                    later.entry.recordedDestination = replacement.first { Self.same($0.key, recorded.path) }?.value ?? nil
                    changed = true
                }
                if changed { try JournalSchema.update(later, in: db) }
            }
            return row?.content
        }
        if let content { PosixFile.remove(folder.appendingPathComponent(content).path) }
    }

    /// Deletes the content files no entry names (left by a process killed while recording).
    ///
    /// Runs in a write transaction: a recording moves its file in inside its own write
    /// transaction, so none is half-way while this looks.
    func removeUnusedContent() async throws {
        let folder = self.folder
        try await store.write { db in
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
            let used = Set(try String.fetchAll(db, sql: "SELECT content FROM journal WHERE content IS NOT NULL"))
            for name in names where name.hasSuffix(".bin") && !used.contains(name) {
                PosixFile.remove(folder.appendingPathComponent(name).path)
            }
        }
    }

    /// Keeps mine (``JournalResolution/keepMine``): the action done under a free name, missing folders made again.
    func keepMine(_ entry: JournalEntry, on provider: any StorageProvider) async throws -> Item? {
        switch entry.action {
        case .delete(let path):
            do { try await provider.delete(path) } catch let error as ProviderError where error.code == .notFound {}
            return nil
        case .createFolder(let path):
            try await makeFolders(path.parent, on: provider)
            return try await underFreeName(path, on: provider) { candidate in
                try await provider.createFolder(named: candidate.name, in: candidate.parent)
            }
        case .upload(let path, let content):
            try await makeFolders(path.parent, on: provider)
            return try await underFreeName(path, on: provider) { candidate in
                try await self.upload(entry.id, content, to: candidate, replacing: nil, on: provider)
            }
        case .move(let from, let to), .copy(let from, let to):
            guard try await Self.fresh(from, on: provider) != nil else {
                throw ProviderError(.invalidArgument, "\(from) is gone from the server: there is nothing of mine to keep; take theirs or drop")
            }
            try await makeFolders(to.parent, on: provider)
            let isMove = entry.action.kind == .move
            return try await underFreeName(to, on: provider) { candidate in
                isMove
                    ? try await provider.move(from, to: candidate, options: TransferOptions())
                    : try await provider.copy(from, to: candidate, options: TransferOptions())
            }
        }
    }

    /// `make` at `path`, or at the first free `name (n)` beside it.
    private func underFreeName(_ path: ItemPath, on provider: any StorageProvider, _ make: (ItemPath) async throws -> Item) async throws -> Item {
        // A move or copy is placed as an upload under `.rename` is: a name seen free, then taken
        // only if still free (the provider's `overwrite: false`).
        try await UploadPlacement.place(
            path.name, in: path.parent, options: UploadOptions(conflict: .rename), maxAttempts: 100,
            existing: { candidate in try await Self.fresh(try path.parent.appending(candidate), on: provider) },
            write: { candidate, _ in try await make(try path.parent.appending(candidate)) })
    }

    /// Creates `folder` and its missing ancestors on the server.
    private func makeFolders(_ folder: ItemPath, on provider: any StorageProvider) async throws {
        guard !folder.isRoot, try await Self.fresh(folder, on: provider) == nil else { return }
        try await makeFolders(folder.parent, on: provider)
        do {
            _ = try await provider.createFolder(named: folder.name, in: folder.parent)
        } catch let error as ProviderError where error.code == .alreadyExists {}
    }
}

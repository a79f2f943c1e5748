import Foundation
import GRDB
import NIOCore
import ProviderAPI
import ProviderKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Recording: each write is one transaction that folds it into the pending entries, or adds an
/// entry, and applies it to the cached view (items marked ``CacheMarks/pending``).
extension SyncJournal {
    /// Records a new folder at `path`.
    func recordCreateFolder(_ path: ItemPath) async throws -> Item {
        try await record { db, work in
            if try work.cached(path, db) != nil { throw ProviderError(.alreadyExists, "\(path) already exists (offline, in the cache)") }
            try work.requireParent(of: path, db)
            let id = try work.insert(.createFolder(path), recorded: nil, db)
            let item = work.pendingItem(Item(path: path, kind: .folder, modified: Date()), id: id)
            try work.save(item, db)
            try db.execute(
                sql: "INSERT OR REPLACE INTO listing (account, path, fetchedAt, complete, changeToken) VALUES (?, ?, ?, 1, NULL)",
                arguments: [work.key, path.storageKey, Date().timeIntervalSinceReferenceDate])
            return item
        }
    }

    /// Records an upload of `source` as `name` in `folder`: the bytes are copied into the journal
    /// and flushed first, then committed with the entry.
    func recordUpload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        try ItemPath.validate(name: name)
        let kept = try await keep(source)
        do {
            let folderURL = self.folder
            let recorded = try await record { db, work in
                var path = try folder.appending(name)
                let existing = try work.cached(path, db)
                if let existing {
                    guard existing.kind == .file else { throw ProviderError(.alreadyExists, "\(path) is a folder") }
                    switch options.conflict {
                    case .fail: throw ProviderError(.alreadyExists, "\(path) already exists (offline, in the cache)")
                    case .rename: path = try work.freeName(name, in: folder, db)
                    case .overwrite: break
                    }
                }
                try work.requireParent(of: path, db)
                let content = JournalContent(size: kept.size, sha256: kept.sha256, modified: options.modified, mimeType: options.mimeType)
                // Move the flushed bytes into the journal inside the transaction: a crash before the commit leaves a
                // file no entry names, which the next replay removes.
                let file = UUID().uuidString.lowercased() + ".bin"
                try PrivateFiles.makeFolder(folderURL)
                try PosixFile.rename(kept.file.path, folderURL.appendingPathComponent(file).path)
                let id: Int64
                if var pending = try work.pending(db).last(where: { $0.entry.action.kind == .upload && work.same($0.entry.action.path, path) }) {
                    // A second upload of a pending upload replaces its bytes and keeps its recorded copy.
                    if let old = pending.content { work.result.unusedContent.append(old) }
                    pending.entry.action = .upload(path, content)
                    pending.content = file
                    try work.update(pending, db)
                    id = pending.entry.id
                } else {
                    id = try work.insert(.upload(path, content), recorded: existing.map(work.unmarked), content: file, db)
                }
                var item = Item(
                    path: path, kind: .file, size: content.size, modified: content.modified ?? Date(), mimeType: content.mimeType,
                    digests: [.sha256: content.sha256])
                if let existing { item.id = existing.id }
                item = work.pendingItem(item, id: id)
                try work.save(item, db)
                return item
            }
            Self.syncFolder(folderURL)
            return recorded
        } catch {
            PosixFile.remove(kept.file.path)
            throw error
        }
    }

    /// Records a delete of `path`.
    func recordDelete(_ path: ItemPath) async throws {
        _ = try await record { db, work -> Item? in
            guard !path.isRoot else { throw ProviderError(.invalidArgument, "the root cannot be deleted") }
            guard let existing = try work.cached(path, db) else { throw ProviderError(.notFound, "offline, and \(path) is not in the cache") }
            let pending = try work.pending(db)
            if let made = pending.last(where: { work.same($0.entry.action.path, path) && ($0.entry.action.kind == .upload || $0.entry.action.kind == .createFolder) }) {
                if made.entry.recorded == nil {
                    // Made offline: deleting it leaves nothing to do, here or below it.
                    try work.dropTree(path, pending: pending, db)
                } else {
                    // An upload over a server file, then a delete: a delete of the file as first seen.
                    var folded = made
                    if let content = folded.content { work.result.unusedContent.append(content) }
                    folded.content = nil
                    folded.entry.action = .delete(path)
                    try work.update(folded, db)
                    try work.dropTree(path, pending: pending.filter { $0.entry.id != made.entry.id }, below: true, db)
                }
            } else if var moved = pending.last(where: { $0.entry.action.kind == .move && work.same($0.entry.action.path, path) }),
                let source = moved.entry.action.source
            {
                // A move, then a delete of where it went: a delete of the source as first seen.
                moved.entry.action = .delete(source)
                moved.entry.recordedDestination = nil
                try work.update(moved, db)
                try work.dropTree(path, pending: pending.filter { $0.entry.id != moved.entry.id }, below: true, db)
            } else {
                // Pending writes below a deleted folder would only be deleted with it.
                try work.dropTree(path, pending: pending, below: true, db)
                _ = try work.insert(.delete(path), recorded: work.unmarked(existing), db)
            }
            try CacheStore.removeSubtree(path.storageKey, bounds: path.descendantRange, account: work.key, in: db)
            return nil
        }
    }

    /// Records a move (or rename) of `source` to `destination`.
    func recordMove(from source: ItemPath, to destination: ItemPath, overwrite: Bool) async throws -> Item {
        try source.checkTransfer(to: destination)
        return try await record { db, work in
            let (existing, target) = try work.transferEnds(from: source, to: destination, overwrite: overwrite, db)
            let pending = try work.pending(db)
            let id: Int64
            if var made = pending.last(where: { work.same($0.entry.action.path, source) && ($0.entry.action.kind == .upload || $0.entry.action.kind == .createFolder) }),
                made.entry.recorded == nil
            {
                // Made offline: it is made at the new place instead, with what was made inside it.
                switch made.entry.action {
                case .upload(_, let content): made.entry.action = .upload(destination, content)
                default: made.entry.action = .createFolder(destination)
                }
                made.entry.recorded = target.map(work.unmarked)
                try work.update(made, db)
                try work.rebase(from: source, to: destination, pending: pending.filter { $0.entry.id != made.entry.id }, db)
                id = made.entry.id
            } else if var moved = pending.last(where: { $0.entry.action.kind == .move && work.same($0.entry.action.path, source) }),
                let first = moved.entry.action.source, !work.same(first, destination)
            {
                // Moved twice: one move from the first place, with the first recorded copy.
                moved.entry.action = .move(from: first, to: destination)
                moved.entry.recordedDestination = target.map(work.unmarked)
                try work.update(moved, db)
                id = moved.entry.id
            } else {
                id = try work.insert(
                    .move(from: source, to: destination), recorded: work.unmarked(existing), destination: target.map(work.unmarked), db)
            }
            try CacheStore.moveSubtree(from: source, to: destination, account: work.key, in: db)
            guard var item = try work.cached(destination, db) else { throw ProviderError(.server, "the cached view lost \(destination)") }
            item = work.pendingItem(item, id: id)
            try work.save(item, db)
            return item
        }
    }

    /// Records a copy of `source` to `destination`.
    func recordCopy(from source: ItemPath, to destination: ItemPath, overwrite: Bool) async throws -> Item {
        try source.checkTransfer(to: destination)
        return try await record { db, work in
            let (existing, target) = try work.transferEnds(from: source, to: destination, overwrite: overwrite, db)
            let id = try work.insert(
                .copy(from: source, to: destination), recorded: work.unmarked(existing), destination: target.map(work.unmarked), db)
            try CacheStore.removeSubtree(destination.storageKey, bounds: destination.descendantRange, account: work.key, in: db)
            var item = existing
            item.path = destination
            item.id = destination.storageKey
            item.properties[CacheMarks.blob] = existing.properties[CacheMarks.blob]
            item = work.pendingItem(item, id: id)
            try work.save(item, db)
            return item
        }
    }

    /// Runs one recording transaction, then deletes unused content and publishes the events.
    private func record<T: Sendable>(_ body: @escaping @Sendable (Database, RecordingWork) throws -> T) async throws -> T {
        let key = accountKey
        let (value, result) = try await store.write { db -> (T, RecordingWork.Result) in
            let work = RecordingWork(key: key)
            let value = try body(db, work)
            return (value, work.result)
        }
        for name in result.unusedContent { PosixFile.remove(folder.appendingPathComponent(name).path) }
        for entry in result.entries { publish(.recorded(entry)) }
        return value
    }

    /// A flushed copy of `source` in the blob store's temporary area, with its size and SHA-256.
    /// The file is made, written (in batches of about 1 MiB) and flushed on swift-nio's blocking
    /// thread pool (`BlockingIO`), never on the caller's thread.
    private func keep(_ source: any UploadSource) async throws -> (file: URL, size: Int64, sha256: String) {
        let url = store.blobs.temp.newFile()
        let path = url.path
        let file = try await BlockingIO.run { try PosixFile.open(path, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600) }
        var digester = Digester(.sha256)
        var size: Int64 = 0
        do {
            var batch = WriteBatch()
            for try await piece in try source.makeStream() {
                digester?.update(piece)
                size += Int64(piece.readableBytes)
                if batch.append(piece) {
                    let pieces = batch.take()
                    try await BlockingIO.run { for piece in pieces { try file.write(piece) } }
                }
            }
            let pieces = batch.take()
            try await BlockingIO.run {
                for piece in pieces { try file.write(piece) }
                try file.sync()
                file.closeNow()
            }
        } catch {
            await BlockingIO.cleanUp {
                file.closeNow()
                PosixFile.remove(path)
            }
            throw ProviderError.wrap(error, fallback: .io)
        }
        if let length = source.length, length != size {
            PosixFile.remove(path)
            throw ProviderError(.integrity, "the upload source gave \(size) bytes, not the \(length) it declared")
        }
        guard let sha256 = digester?.finalize() else { throw ProviderError.unsupported("SHA-256") }
        return (url, size, sha256)
    }

    /// Flushes a folder's entries (the renames into it) to disk.
    static func syncFolder(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}

/// The state of one recording transaction and its helpers (used only inside that transaction).
final class RecordingWork: @unchecked Sendable {
    // @unchecked: made and used inside one database transaction closure, on one thread.
    struct Result: Sendable {
        var entries: [JournalEntry] = []
        var unusedContent: [String] = []
    }

    let key: String
    var result = Result()
    private let coding = ItemCoding()

    init(key: String) { self.key = key }

    /// Whether two paths are the same bytes.
    func same(_ a: ItemPath, _ b: ItemPath) -> Bool { PathKey(a) == PathKey(b) }

    /// Whether `path` is `ancestor` or below it.
    func within(_ path: ItemPath, _ ancestor: ItemPath) -> Bool {
        same(path, ancestor) || path.storageKey.utf8.starts(with: (ancestor.isRoot ? "/" : ancestor.storageKey + "/").utf8)
    }

    func cached(_ path: ItemPath, _ db: Database) throws -> Item? {
        try Row.fetchOne(db, sql: "SELECT json FROM item WHERE account = ? AND path = ?", arguments: [key, path.storageKey])
            .map { try coding.item(in: $0) }
    }

    /// Offline, a write needs its folder in the cached view (the root always is).
    func requireParent(of path: ItemPath, _ db: Database) throws {
        let parent = path.parent
        guard !parent.isRoot else { return }
        if let folder = try cached(parent, db) {
            guard folder.kind == .folder else { throw ProviderError(.invalidArgument, "\(parent) is not a folder") }
            return
        }
        // A folder that was listed is known even when its own item was never fetched.
        let listed = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM listing WHERE account = ? AND path = ?)", arguments: [key, parent.storageKey]) ?? false
        guard listed else { throw ProviderError(.notFound, "offline, and \(parent) is not in the cache") }
    }

    /// The cached `source` of a move or copy and what stands at `destination`, if anything: the
    /// source must be in the cached view, the destination free unless `overwrite`, its folder known.
    func transferEnds(
        from source: ItemPath, to destination: ItemPath, overwrite: Bool, _ db: Database
    ) throws -> (existing: Item, target: Item?) {
        guard let existing = try cached(source, db) else { throw ProviderError(.notFound, "offline, and \(source) is not in the cache") }
        let target = try cached(destination, db)
        if target != nil, !overwrite { throw ProviderError(.alreadyExists, "\(destination) already exists (offline, in the cache)") }
        try requireParent(of: destination, db)
        return (existing, target)
    }

    func save(_ item: Item, _ db: Database) throws {
        try coding.upsert(item, account: key, fetchedAt: Date(), in: db)
    }

    /// `item` marked as made by entry `id`.
    func pendingItem(_ item: Item, id: Int64) -> Item {
        var item = item
        item.properties[CacheMarks.pending] = "true"
        item.properties[CacheMarks.journalEntry] = String(id)
        item.properties[CacheMarks.stale] = nil
        item.properties[CacheMarks.fetchedAt] = nil
        return item
    }

    /// `item` as a recorded copy: without the cache's answer marks (a pending mark stays: the replay
    /// replaces such a copy by what the server answered to the entry that made it).
    func unmarked(_ item: Item) -> Item {
        var item = item
        item.properties[CacheMarks.stale] = nil
        item.properties[CacheMarks.fetchedAt] = nil
        item.properties[CacheMarks.blob] = nil
        return item
    }

    /// The entries of the account that may still change (pending, not being replayed or waiting for a resolution).
    func pending(_ db: Database) throws -> [JournalSchema.Row] {
        try JournalSchema.rows(account: key, in: db).filter { $0.entry.state == .pending }
    }

    func insert(_ action: JournalAction, recorded: Item?, destination: Item? = nil, content: String? = nil, _ db: Database) throws -> Int64 {
        let now = Date()
        let id = try JournalSchema.insert(
            account: key, action: action, recorded: recorded, recordedDestination: destination, at: now, content: content, in: db)
        result.entries.append(JournalEntry(id: id, account: key, action: action, recorded: recorded, recordedDestination: destination, recordedAt: now))
        return id
    }

    func update(_ row: JournalSchema.Row, _ db: Database) throws {
        try JournalSchema.update(row, in: db)
        result.entries.append(row.entry)
    }

    func drop(_ row: JournalSchema.Row, _ db: Database) throws {
        try JournalSchema.delete(id: row.entry.id, in: db)
        if let content = row.content { result.unusedContent.append(content) }
    }

    /// Drops the pending entries that only write at or below `path` (below only, when `below`),
    /// which deleting `path` makes moot; a move into it from elsewhere becomes a delete of its source.
    func dropTree(_ path: ItemPath, pending: [JournalSchema.Row], below: Bool = false, _ db: Database) throws {
        for row in pending {
            let action = row.entry.action
            let target = action.path
            guard within(target, path), !(below && same(target, path)) else { continue }
            if let source = action.source, !within(source, path) {
                guard action.kind == .move else {
                    try drop(row, db)
                    continue
                }
                var folded = row
                folded.entry.action = .delete(source)
                folded.entry.recordedDestination = nil
                try update(folded, db)
                continue
            }
            try drop(row, db)
        }
    }

    /// Rewrites the paths of pending entries at or below `source` to below `destination` (what was
    /// made inside a folder made offline follows it when it is renamed).
    func rebase(from source: ItemPath, to destination: ItemPath, pending: [JournalSchema.Row], _ db: Database) throws {
        func moved(_ path: ItemPath) throws -> ItemPath {
            within(path, source) ? try CacheStore.rebase(path.storageKey, from: source, to: destination) : path
        }
        for var row in pending where row.entry.action.paths.contains(where: { within($0, source) }) {
            switch row.entry.action {
            case .createFolder(let path): row.entry.action = .createFolder(try moved(path))
            case .upload(let path, let content): row.entry.action = .upload(try moved(path), content)
            case .delete(let path): row.entry.action = .delete(try moved(path))
            case .move(let from, let to): row.entry.action = .move(from: try moved(from), to: try moved(to))
            case .copy(let from, let to): row.entry.action = .copy(from: try moved(from), to: try moved(to))
            }
            try update(row, db)
        }
    }

    /// A name in `folder` that the cached view does not hold: `name`, `name (1)`, …
    func freeName(_ name: String, in folder: ItemPath, _ db: Database) throws -> ItemPath {
        let free = try ConflictNames.firstFree(name, attempts: 1..<10_000) { candidate in
            try cached(folder.appending(candidate), db) != nil
        }
        guard let free else { throw ProviderError(.alreadyExists, "no free name for \(name) in \(folder)") }
        return try folder.appending(free)
    }
}

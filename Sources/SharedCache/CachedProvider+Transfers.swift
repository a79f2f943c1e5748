import Foundation
import NIOCore
import ProviderAPI
import ProviderKit

extension CachedProvider {
    /// Serves whole downloads from the blob store when it holds the content (the server's digest,
    /// or the blob recorded for an unchanged etag), keeps new ones there, and answers offline from it.
    /// Ranged and resumed downloads go to the server untouched.
    public func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        let overlay = try await journal.overlay { JournalOverlay.same($0, path) }
        let owner = overlay.owner(of: path)
        if case .journal(let id, let root) = owner, JournalOverlay.same(root, path), let mine = overlay.item(at: path), mine.kind == .file,
            let file = try await journal.contentFile(of: id)
        {
            // A waiting upload: its kept bytes are the file's content until it is replayed.
            guard options.range == nil, !options.resume else { throw ProviderError(.unsupported, "ranged download of a pending offline upload") }
            return try await serve(file, item: mine, to: sink, options: options)
        }
        if owner != .server {
            // Moved, copied or made by a waiting entry (hidden: not found): the server does not have it there yet.
            let known = try await item(at: path)
            let cached = try await store.item(at: path, account: account)?.item
            guard options.range == nil, !options.resume, let key = await blobKey(for: known, cached: cached),
                let file = await store.blobs.open(key)
            else { throw ProviderError(.notFound, "the content of \(path) waits for a pending offline write and is not in the cache") }
            return try await serve(file, item: known, to: sink, options: options)
        }
        guard options.range == nil, !options.resume else { return try await base.download(path, to: sink, options: options) }
        let known: Item
        do {
            known = policy.mode == .cacheOnly ? try await item(at: path) : try await fetchItem(path)
        } catch where Self.isOffline(error) {
            known = try await item(at: path)
        }
        let cached = try await store.item(at: path, account: account)?.item
        if let key = await blobKey(for: known, cached: cached), let file = await store.blobs.open(key) {
            return try await serve(file, item: known, to: sink, options: options)
        }
        if policy.mode == .cacheOnly || known.properties[CacheMarks.stale] == "true" { throw notCached("the content of \(path)") }
        let declared = Self.preferredDigest(of: known)
        let tee = TeeSink(primary: sink, side: store.blobs.sink(expectedDigest: declared?.hex, algorithm: declared?.algorithm ?? .sha256))
        let result = try await base.download(path, to: tee, options: options)
        if let key = await tee.storedKey, !result.notModified {
            var kept = result.item
            if kept.etag == nil { kept.etag = known.etag }
            if kept.digests.isEmpty { kept.digests = known.digests }
            kept.properties[CacheMarks.blob] = key
            try? await store.saveItem(kept, account: account)
        }
        return result
    }

    /// The blob holding `item`'s content: its declared digest, or the blob recorded for the same
    /// version (same etag, or, for servers without etags, the same size and modification time).
    /// Offline, or answering from the cache alone, the recorded blob is the best there is.
    func blobKey(for item: Item, cached: Item?) async -> String? {
        if let declared = Self.preferredDigest(of: item), await store.blobs.has(declared.hex) { return declared.hex }
        guard let cached, let key = cached.properties[CacheMarks.blob] else { return nil }
        if policy.mode == .cacheOnly || item.properties[CacheMarks.stale] == "true" { return key }
        if let etag = item.etag { return cached.etag.map { ETag.weaklyEqual(etag, $0) } == true ? key : nil }
        return cached.etag == nil && item.size == cached.size && item.modified == cached.modified ? key : nil
    }

    static func preferredDigest(of item: Item) -> (algorithm: DigestAlgorithm, hex: String)? {
        for algorithm in [DigestAlgorithm.sha256, .sha1, .md5] {
            if let hex = item.digests[algorithm] { return (algorithm, hex.lowercased()) }
        }
        return nil
    }

    /// Copies a cached blob into `sink`, a piece at a time.
    func serve(_ file: URL, item: Item, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        let source = try FileSource(url: file)
        let length = source.length ?? 0
        try await sink.begin(offset: 0, expectedLength: length, validator: item.etag)
        var sent: Int64 = 0
        do {
            for try await piece in try source.makeStream() {
                try Task.checkCancellation()
                try await sink.write(piece)
                sent += Int64(piece.readableBytes)
                options.progress?(TransferProgress(completed: sent, expected: length))
            }
            try await sink.finish()
        } catch {
            await sink.fail()
            throw ProviderError.wrap(error)
        }
        var served = item
        if served.size == nil { served.size = length }
        return DownloadResult(item: served, bytesReceived: sent)
    }

    public func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        try await write(at: [(try? folder.appending(name)) ?? folder], source: source) {
            try await journal.recordUpload(source, to: folder, name: name, options: options)
        } online: {
            let item = try await base.upload(source, to: folder, name: name, options: options)
            try? await store.saveItem(item, account: account)
            return item
        }
    }

    public func createFolder(named name: String, in parent: ItemPath) async throws -> Item {
        let path = try parent.appending(name)
        return try await write(at: [path]) {
            try await journal.recordCreateFolder(path)
        } online: {
            let item = try await base.createFolder(named: name, in: parent)
            try? await store.saveItem(item, account: account)
            _ = try? await store.saveListing([], of: item.path, account: account, complete: true)
            return item
        }
    }

    public func delete(_ path: ItemPath) async throws {
        try await write(at: [path]) {
            try await journal.recordDelete(path)
        } online: {
            do {
                try await base.delete(path)
            } catch let error as ProviderError where error.code == .notFound {
                try? await store.removeItem(at: path, account: account)
                throw error
            }
            try? await store.removeItem(at: path, account: account)
        }
    }

    public func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await write(at: [source, destination]) {
            try await journal.recordMove(from: source, to: destination, overwrite: options.overwrite)
        } online: {
            let item = try await base.move(source, to: destination, options: options)
            try? await store.removeItem(at: destination, account: account)
            try? await store.moveItem(from: source, to: destination, account: account)
            try? await store.saveItem(item, account: account)
            return item
        }
    }

    public func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await write(at: [source, destination]) {
            try await journal.recordCopy(from: source, to: destination, overwrite: options.overwrite)
        } online: {
            let item = try await base.copy(source, to: destination, options: options)
            try? await store.removeItem(at: destination, account: account)
            try? await store.saveItem(item, account: account)
            return item
        }
    }

    /// The server's search where it has one and can be reached (with the items waiting in the
    /// journal that the query matches added to its first page); else the cached metadata.
    public func search(_ query: Query, page: PageRequest) async throws -> ItemPage {
        // Found items the journal moved, deleted or replaced are shown as it says; on the first page,
        // items it made or moved that the query matches in the cached view are added.
        let overlay = try await journal.overlay { _ in true }
        if policy.mode != .cacheOnly, base.capabilities.supports(.search) {
            do {
                let found = try await base.search(query, page: page)
                let owned = overlay.serverOwned(found.items)
                if !owned.isEmpty { try? await store.saveItems(owned, account: account) }
                guard !overlay.isEmpty else { return found }
                var items = overlay.items(found.items)
                let added = page.cursor == nil ? try await pendingMatches(query, overlay: overlay, besides: items, room: page.limit) : []
                items += added
                let total = found.next == nil ? items.count : found.totalCount.map { $0 + added.count }
                return ItemPage(items: items, next: found.next, totalCount: total)
            } catch where Self.isOffline(error) {}
        }
        if case .native = query { throw ProviderError.unsupported("native queries over the cache") }
        let items = overlay.items(try await store.search(query, account: account, limit: page.limit))
        return ItemPage(items: items, totalCount: items.count)
    }

    /// The items the journal made or moved (not yet on the server, so no server search finds them)
    /// that `query` matches, beyond `besides`, in path order, at most enough to fill a page of
    /// `room` items: each item an entry shows, and in a folder it shows, what the cached view holds
    /// below it (a folder moved or made offline). Only the journal's paths are read, never a search
    /// of the whole cache. None for a native query, which only the server can evaluate.
    private func pendingMatches(_ query: Query, overlay: JournalOverlay, besides items: [Item], room: Int?) async throws -> [Item] {
        let space = room.map { $0 - items.count } ?? Int.max
        guard space > 0 else { return [] }
        var seen = Set(items.map { PathKey($0.path) })
        var candidates: [Item] = []
        for root in overlay.shownRoots {
            guard let item = overlay.item(at: root) else { continue }
            candidates.append(item)
            if item.kind == .folder, let below = try? await store.search(query, under: root, account: account) {
                candidates += overlay.items(below)
            }
        }
        var added: [Item] = []
        for item in candidates.sorted(by: { $0.path.storageKey.utf8.lexicographicallyPrecedes($1.path.storageKey.utf8) })
        where added.count < space && query.matches(item) {
            guard case .journal = overlay.owner(of: item.path), seen.insert(PathKey(item.path)).inserted else { continue }
            added.append(item)
        }
        return added
    }

    public func shares(of path: ItemPath) async throws -> [Share] { try await base.shares(of: path) }
    public func share(_ path: ItemPath, with request: ShareRequest) async throws -> Share { try await base.share(path, with: request) }
    public func revoke(_ share: Share) async throws { try await base.revoke(share) }
    public func changes(since token: ChangeToken?) async throws -> ChangeBatch { try await base.changes(since: token) }
    public func quota() async throws -> Quota { try await base.quota() }
}

import Foundation
import Logging
import ProviderAPI

/// A `StorageProvider` in front of any other one, answering from a ``CacheStore`` when the
/// policy says so or when the network fails.
///
/// - Reads (`item`, `list`, `search`, `download`) follow the ``CachePolicy``; with
///   `networkFirst`, a network failure is answered from the cache with items marked
///   ``CacheMarks/stale``, and when the cache has nothing the original error is thrown.
/// - Its own writes (upload, create, delete, move, copy) update the cache at once.
/// - Whole downloads are kept in the blob store, keyed by the item's digest (SHA-256 computed
///   when the server declares none); a second download of unchanged content is served from disk.
/// - Search asks the server where it can search, else (or offline) the cached metadata.
///
/// ```swift
/// let store = try CacheStore(directory: cacheURL)
/// let cached = CachedProvider(wrapping: dav, store: store, policy: .networkFirst)
/// let items = try await cached.listAll("/Reports")   // answers offline too, once listed online
/// ```
public struct CachedProvider: StorageProvider {
    /// The provider behind the cache.
    package let base: any StorageProvider
    /// The cache.
    package let store: CacheStore
    /// When to answer from the cache.
    package let policy: CachePolicy
    /// The background refreshes that ``CachePolicy/Mode/staleWhileRevalidate`` answers start:
    /// one at a time per item or listing, awaited with ``CacheRefresher/waitForAll()``,
    /// cancelled by ``close()``. Copies of this provider share it.
    package let refresher: CacheRefresher
    /// Whether writes go to the ``SyncJournal`` when the server cannot be reached (``OfflineWrites``).
    package let offlineWrites: OfflineWrites
    let logger: Logger

    /// Wraps `base`; `offlineWrites` says whether writes are journaled offline (by default they fail, as reads of uncached items do).
    public init(
        wrapping base: any StorageProvider, store: CacheStore, policy: CachePolicy = .networkFirst, offlineWrites: OfflineWrites = .off,
        logger: Logger = Logger(label: "strata.cache", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.base = base
        self.store = store
        self.policy = policy
        self.offlineWrites = offlineWrites
        self.logger = logger
        self.refresher = CacheRefresher(logger: logger)
    }

    /// Cancels the background refreshes and waits for them to end; none starts afterwards.
    ///
    /// The cache and the base provider stay usable; only stale answers are no longer refreshed.
    public func close() async {
        await refresher.close()
    }

    /// The base provider's, plus search (over cached metadata when the server has none).
    public var capabilities: Capabilities {
        var capabilities = base.capabilities
        capabilities.features.insert(.search)
        return capabilities
    }

    public var account: ProviderAccount { base.account }
    /// The wrapped provider's location of the folder (the cache holds no tree of its own).
    public func location(of path: ItemPath) async throws -> TreeLocation { try await base.location(of: path) }

    /// The base provider's.
    public var pageLimits: PageLimits { base.pageLimits }

    /// The base provider's prediction: a page with a cursor comes from the server (a listing
    /// answered by the cache or the journal is one page, with no cursor), so the request after it
    /// is the base provider's to tell; the page loops then fetch through the cache one page ahead
    /// as they would from the base provider itself.
    public func pageRequest(after request: PageRequest, in folder: ItemPath, previous: ItemPage) -> PageRequest? {
        base.pageRequest(after: request, in: folder, previous: previous)
    }

    /// Whether an error means the server could not be reached, so the cache may answer (and, with
    /// ``OfflineWrites/whenUnreachable``, the journal record a write): a `ProviderError.Code.network`
    /// error, or a `502`, `503` or `504` from a gateway.
    package static func isOffline(_ error: any Error) -> Bool {
        guard let error = error as? ProviderError else { return false }
        return error.code == .network || (error.code == .server && [502, 503, 504].contains(error.httpStatus ?? 0))
    }

    /// `item` as answered from the cache: marked stale when `stale`, with when it was fetched.
    static func marked(_ item: Item, fetchedAt: Date, stale: Bool) -> Item {
        marked(item, stamp: stamp(fetchedAt), stale: stale)
    }

    /// `item` marked with an already formatted fetch time (a listing formats its time once, not per item).
    static func marked(_ item: Item, stamp: String, stale: Bool) -> Item {
        var item = item
        item.properties[CacheMarks.fetchedAt] = stamp
        if stale { item.properties[CacheMarks.stale] = "true" } else { item.properties[CacheMarks.stale] = nil }
        return item
    }

    /// A fetch time as ISO 8601.
    static func stamp(_ date: Date) -> String { date.formatted(.iso8601) }

    /// The error for a read the cache cannot answer while offline.
    func notCached(_ what: String) -> ProviderError {
        ProviderError(.network, "offline, and \(what) is not in the cache")
    }

    // MARK: Metadata

    public func item(at path: ItemPath) async throws -> Item {
        let overlay = try await journal.overlay { JournalOverlay.same($0, path) }
        switch overlay.owner(of: path) {
        case .server: return try await serverItem(at: path, overlay: overlay)
        case .hidden: throw ProviderError(.notFound, "\(path) is deleted or moved away by a pending offline write")
        case .journal(_, let root):
            if JournalOverlay.same(root, path), let mine = overlay.item(at: path) { return mine }
            guard let cached = try await store.item(at: path, account: account) else {
                throw ProviderError(.notFound, "\(path) is not in a folder made or moved by a pending offline write")
            }
            return Self.marked(cached.item, fetchedAt: cached.fetchedAt, stale: false)
        }
    }

    /// ``item(at:)`` of a path the journal does not answer for.
    private func serverItem(at path: ItemPath, overlay: JournalOverlay) async throws -> Item {
        let cached = try await store.item(at: path, account: account)
        switch policy.mode {
        case .cacheOnly:
            guard let cached else { throw notCached("\(path)") }
            return Self.marked(cached.item, fetchedAt: cached.fetchedAt, stale: !policy.isFresh(cached.fetchedAt))
        case .cacheFirst:
            if let cached, policy.isFresh(cached.fetchedAt) { return Self.marked(cached.item, fetchedAt: cached.fetchedAt, stale: false) }
        case .staleWhileRevalidate:
            if let cached {
                let fresh = policy.isFresh(cached.fetchedAt)
                if !fresh { revalidate("item \(path)") { _ = try await fetchItem(path) } }
                return Self.marked(cached.item, fetchedAt: cached.fetchedAt, stale: !fresh)
            }
        case .networkFirst:
            break
        }
        do {
            return try await fetchItem(path)
        } catch where Self.isOffline(error) {
            guard let cached else { throw error }
            return Self.marked(cached.item, fetchedAt: cached.fetchedAt, stale: true)
        } catch let failure as ProviderError where failure.code == .notFound {
            try? await store.removeItem(at: path, account: account)
            throw failure
        }
    }

    /// Asks the server and keeps the answer.
    func fetchItem(_ path: ItemPath) async throws -> Item {
        let item = try await base.item(at: path)
        try? await store.saveItem(item, account: account)
        return item
    }

    /// Lists `folder` as the `policy` says, with the account's waiting journal entries laid over the answer
    /// (online or cached): new items shown marked ``CacheMarks/pending``, deleted ones hidden, moved ones at their new place only.
    public func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        let overlay = try await journal.overlay { JournalOverlay.same($0.parent, folder) && !$0.isRoot }
        switch overlay.owner(of: folder) {
        case .server:
            let answer = try await serverList(folder, page: page, overlay: overlay)
            guard !overlay.isEmpty else { return answer }
            let items = overlay.children(answer.items, of: folder, addingNew: page.cursor == nil)
            // The journal adds and hides items: the server's count no longer counts them, and only a
            // listing of one page is counted here.
            let whole = page.cursor == nil && answer.next == nil
            return ItemPage(items: items, next: answer.next, totalCount: whole ? items.count : nil, completeness: answer.completeness)
        case .hidden:
            throw ProviderError(.notFound, "\(folder) is deleted or moved away by a pending offline write")
        case .journal:
            guard page.cursor == nil else { return ItemPage(items: []) }
            // What the cache and the journal know of a folder the server does not have yet: no proof of the whole.
            let items = overlay.children(try await store.cachedChildren(of: folder, account: account), of: folder)
            return ItemPage(items: items, totalCount: items.count, completeness: .partial)
        }
    }

    /// ``list(_:page:)`` of a folder the journal does not answer for; what is kept in the cache leaves the journal's paths alone.
    private func serverList(_ folder: ItemPath, page: PageRequest, overlay: JournalOverlay) async throws -> ItemPage {
        let cached = page.cursor == nil ? try await store.listing(of: folder, account: account) : nil
        let complete = cached.flatMap { $0.isComplete ? $0 : nil }
        switch policy.mode {
        case .cacheOnly:
            guard let complete else { throw notCached("the listing of \(folder)") }
            return cachedPage(complete, stale: !policy.isFresh(complete.fetchedAt), limit: page.limit)
        case .cacheFirst:
            if let complete, policy.isFresh(complete.fetchedAt) { return cachedPage(complete, stale: false, limit: page.limit) }
        case .staleWhileRevalidate:
            if let complete {
                let fresh = policy.isFresh(complete.fetchedAt)
                if !fresh { revalidate("listing \(folder)") { try await refreshListing(folder) } }
                return cachedPage(complete, stale: !fresh, limit: page.limit)
            }
        case .networkFirst:
            break
        }
        do {
            if page.cursor == nil, page.limit == nil {
                let fetched = try await fetchListingReporting(folder, overlay: overlay)
                return ItemPage(items: fetched.items, completeness: fetched.completeness)
            }
            // Cached items keep every field, whatever this caller needs.
            var full = page
            full.fields = .all
            let answer = try await base.list(folder, page: full)
            let owned = overlay.serverOwned(answer.items)
            if !owned.isEmpty { try? await store.saveItems(owned, account: account) }
            return answer
        } catch where Self.isOffline(error) {
            guard let complete else { throw error }
            return cachedPage(complete, stale: true, limit: page.limit)
        }
    }

    /// Refreshes a stale listing: through the change feed where the provider has one (only what
    /// changed is fetched), else by listing the folder again.
    func refreshListing(_ folder: ItemPath) async throws {
        let following = try await store.item(at: .root, account: account)?.item.properties[CacheMarks.changeToken] != nil
        if following, try await refreshChanges() != nil {
            let items = try await store.cachedChildren(of: folder, account: account)
            try await store.saveListing(items, of: folder, account: account, complete: true)
            return
        }
        // Start following the feed before listing, so that what changes after the listing is seen next time.
        if !following { _ = try? await refreshChanges() }
        _ = try await fetchListing(folder)
    }

    /// Lists everything on the server and keeps it as a complete listing.
    ///
    /// Where the provider has ``Capabilities/Features/recursiveETags``, the folder's etag is
    /// asked first (one small request): when it equals the one the cached listing was read at,
    /// the folder is unchanged and the cached listing answers without listing again.
    func fetchListing(_ folder: ItemPath) async throws -> [Item] {
        try await fetchListingReporting(folder).items
    }

    /// ``fetchListing(_:)``, also saying whether the server listed the folder (false: its etag showed it unchanged),
    /// how many children were new or changed, and what the listing knows of its completeness (a listing
    /// that is not complete is kept as incomplete: the cache never answers with it as a whole).
    ///
    /// - Parameters:
    ///   - knownETag: the folder's etag as its parent's listing just gave it; the folder is then not asked for it again.
    ///   - cachedItems: whether an unchanged folder's cached children are wanted (a tree walk needs none: under
    ///     recursive etags everything below an unchanged folder is unchanged).
    ///   - overlay: the journal as already read for this folder (read here when nil): the listing kept in the cache
    ///     holds the journal's items, not the server's, at the paths the journal answers for.
    func fetchListingReporting(
        _ folder: ItemPath, knownETag: String? = nil, cachedItems: Bool = true, overlay known: JournalOverlay? = nil,
        given: FolderListing? = nil
    ) async throws -> (items: [Item], listed: Bool, changed: Int, completeness: ListingCompleteness) {
        let overlay: JournalOverlay
        if let known { overlay = known } else { overlay = try await journal.overlay { JournalOverlay.same($0.parent, folder) && !$0.isRoot } }
        guard overlay.owner(of: folder) == .server else {
            // Made, moved or deleted by a waiting entry: the server has nothing to say about it yet.
            let items = overlay.owner(of: folder) == .hidden ? [] : try await store.cachedChildren(of: folder, account: account)
            return (overlay.children(items, of: folder), false, 0, .partial)
        }
        guard base.capabilities.features.contains(.recursiveETags) else {
            let listing: FolderListing
            if let given { listing = given } else { listing = try await base.listing(folder) }
            let items = overlay.children(listing.items, of: folder)
            let changed =
                (try? await store.saveListing(items, of: folder, account: account, complete: listing.completeness.isComplete)) ?? items.count
            return (items, true, changed, listing.completeness)
        }
        let etag: String?
        if let knownETag { etag = knownETag } else { etag = try await base.item(at: folder).etag }
        if let etag, let state = try? await store.listingState(of: folder, account: account), state.isComplete, state.changeToken == etag,
            let unchanged = cachedItems ? (try? await store.listing(of: folder, account: account))?.items : []
        {
            _ = try? await store.touchListing(of: folder, account: account)
            // Complete when it was kept, and the server's recursive etag says nothing below changed since.
            return (overlay.children(unchanged, of: folder), false, 0, .ended)
        }
        // The etag is read before the listing: a change made while listing shows as a new etag next time.
        let listing = try await base.listing(folder)
        let items = overlay.children(listing.items, of: folder)
        let changed =
            (try? await store.saveListing(items, of: folder, account: account, complete: listing.completeness.isComplete, changeToken: etag))
            ?? items.count
        return (items, true, changed, listing.completeness)
    }

    /// A cached listing as one page (the cache answers whole listings; a limit is a hint), said to
    /// be ``ListingCompleteness/cached``: whole when it was kept, no proof of the server now.
    private func cachedPage(_ listing: CachedListing, stale: Bool, limit: Int?) -> ItemPage {
        let stamp = Self.stamp(listing.fetchedAt)
        let items = listing.items.map { $0.properties[CacheMarks.pending] == nil ? Self.marked($0, stamp: stamp, stale: stale) : $0 }
        return ItemPage(items: items, totalCount: items.count, completeness: .cached)
    }

    /// Refreshes `key` in the background, unless it is being refreshed; a failure only leaves the cache as it was.
    func revalidate(_ key: String, _ work: @escaping @Sendable () async throws -> Void) {
        refresher.refresh(key, work)
    }
}

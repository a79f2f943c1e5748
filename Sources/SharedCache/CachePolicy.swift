import Foundation

/// When a ``CachedProvider`` answers from its cache and when from the server.
public struct CachePolicy: Sendable, Hashable {
    /// The order of cache and server.
    public enum Mode: String, Sendable, Hashable, Codable {
        /// Ask the server; when the network fails, answer from the cache, marked stale.
        case networkFirst
        /// Answer from the cache while it is younger than ``CachePolicy/maxAge``; else as `networkFirst`.
        case cacheFirst
        /// Answer only from the cache (offline); what it lacks is a `network` error.
        case cacheOnly
        /// Answer from the cache at once (marked stale when older than ``CachePolicy/maxAge``) and refresh it in the background.
        case staleWhileRevalidate
    }

    /// The order of cache and server.
    public var mode: Mode
    /// How old a cached answer may be and still count as fresh.
    public var maxAge: Duration

    /// Creates a policy.
    public init(_ mode: Mode, maxAge: Duration = .seconds(300)) {
        self.mode = mode
        self.maxAge = maxAge
    }

    /// Ask the server first.
    public static let networkFirst = CachePolicy(.networkFirst)
    /// Offline: the cache only.
    public static let cacheOnly = CachePolicy(.cacheOnly)

    /// Whether an answer fetched at `date` is still fresh.
    func isFresh(_ date: Date, now: Date = Date()) -> Bool {
        let (seconds, attoseconds) = maxAge.components
        return now.timeIntervalSince(date) <= Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Keys a ``CachedProvider`` adds to the `ProviderAPI.Item.properties` of the items it answers from the cache.
public enum CacheMarks {
    /// `"true"` on an item answered from the cache because the server could not be reached, or that is older than the policy's `maxAge`.
    public static let stale = "strata.cache.stale"
    /// When the cached item was fetched from the server (ISO 8601).
    public static let fetchedAt = "strata.cache.fetchedAt"
    /// The blob store key of the item's content, when the cache holds it.
    package static let blob = "strata.cache.blob"
    /// On the cached root: the position in the provider's change feed (``CachedProvider/refreshChanges()``).
    package static let changeToken = "strata.cache.changeToken"
    /// `"true"` on an item whose state comes from an offline write waiting in the ``SyncJournal``
    /// (not yet on the server).
    public static let pending = "strata.cache.pending"
    /// On a pending item: the id of the ``JournalEntry`` that made it (decimal).
    public static let journalEntry = "strata.cache.journalEntry"
}

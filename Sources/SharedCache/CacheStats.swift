import Foundation

/// Counts of what a cache holds.
public struct CacheStats: Sendable, Hashable, Codable {
    /// Cached items, all accounts together.
    public var items: Int
    /// Recorded folder listings.
    public var listings: Int
    /// Blobs in the blob store.
    public var blobs: Int
    /// Bytes of the blobs.
    public var blobBytes: Int64
    /// Distinct accounts with cached metadata.
    public var accounts: Int

    /// Creates stats.
    public init(items: Int, listings: Int, blobs: Int, blobBytes: Int64, accounts: Int) {
        self.items = items
        self.listings = listings
        self.blobs = blobs
        self.blobBytes = blobBytes
        self.accounts = accounts
    }
}

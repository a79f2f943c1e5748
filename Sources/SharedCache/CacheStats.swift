import Foundation

/// Counts of what a cache holds.
package struct CacheStats: Sendable, Hashable, Codable {
    /// Cached items, all accounts together.
    package var items: Int
    /// Recorded folder listings.
    package var listings: Int
    /// Blobs in the blob store.
    package var blobs: Int
    /// Bytes of the blobs.
    package var blobBytes: Int64
    /// Distinct accounts with cached metadata.
    package var accounts: Int

    /// Creates stats.
    package init(items: Int, listings: Int, blobs: Int, blobBytes: Int64, accounts: Int) {
        self.items = items
        self.listings = listings
        self.blobs = blobs
        self.blobBytes = blobBytes
        self.accounts = accounts
    }
}

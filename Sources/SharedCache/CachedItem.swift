import Foundation
import ProviderAPI

/// An item's cached metadata and when it was fetched.
public struct CachedItem: Sendable, Hashable {
    /// The item as the server described it.
    public var item: Item
    /// When the metadata was fetched from the server.
    public var fetchedAt: Date

    /// Creates a cached item.
    public init(item: Item, fetchedAt: Date) {
        self.item = item
        self.fetchedAt = fetchedAt
    }
}

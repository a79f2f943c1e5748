import Foundation
import ProviderAPI

/// An item's cached metadata and when it was fetched.
package struct CachedItem: Sendable, Hashable {
    /// The item as the server described it.
    package var item: Item
    /// When the metadata was fetched from the server.
    package var fetchedAt: Date

    /// Creates a cached item.
    package init(item: Item, fetchedAt: Date) {
        self.item = item
        self.fetchedAt = fetchedAt
    }
}

import Foundation
import ProviderAPI

/// A folder's cached listing.
package struct CachedListing: Sendable, Hashable {
    /// The cached children, sorted by name (bytewise).
    package var items: [Item]
    /// When the listing was fetched.
    package var fetchedAt: Date
    /// Whether the listing held every child (not one page, not a partial walk).
    package var isComplete: Bool
    /// The folder's etag or change token the listing was read at, when the provider gave one.
    package var changeToken: String?

    /// Creates a cached listing.
    package init(items: [Item], fetchedAt: Date, isComplete: Bool, changeToken: String? = nil) {
        self.items = items
        self.fetchedAt = fetchedAt
        self.isComplete = isComplete
        self.changeToken = changeToken
    }
}

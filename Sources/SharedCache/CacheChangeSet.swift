import Foundation
import ProviderAPI

/// One change of a live listing or query: the full current result and what changed since the previous one.
///
/// The first change set of a stream has every current item in ``inserted``.
package struct CacheChangeSet: Sendable, Hashable {
    /// The current full result, sorted by name (bytewise).
    package var items: [Item]
    /// Items that appeared.
    package var inserted: [Item]
    /// Items that disappeared (as they were).
    package var removed: [Item]
    /// Items still present whose metadata changed (as they are now).
    package var updated: [Item]

    /// Creates a change set.
    package init(items: [Item], inserted: [Item], removed: [Item], updated: [Item]) {
        self.items = items
        self.inserted = inserted
        self.removed = removed
        self.updated = updated
    }

    /// Whether nothing changed.
    package var isEmpty: Bool { inserted.isEmpty && removed.isEmpty && updated.isEmpty }
}

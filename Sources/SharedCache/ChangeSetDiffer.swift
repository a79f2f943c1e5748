import Foundation
import ProviderAPI

/// Turns successive full results of a live query into change sets, keyed by exact path bytes.
struct ChangeSetDiffer: Sendable {
    private var previous: [PathKey: (item: Item, json: Data)]?

    /// The change set from the previous result to `current` (each item with its stored JSON), or nil when nothing changed.
    mutating func next(_ current: [(item: Item, json: Data)]) -> CacheChangeSet? {
        var table: [PathKey: (item: Item, json: Data)] = [:]
        for entry in current { table[PathKey(entry.item.path)] = entry }
        let items = current.map(\.item)
        guard let previous else {
            self.previous = table
            return CacheChangeSet(items: items, inserted: items, removed: [], updated: [])
        }
        var inserted: [Item] = []
        var updated: [Item] = []
        for entry in current {
            if let old = previous[PathKey(entry.item.path)] {
                if old.json != entry.json { updated.append(entry.item) }
            } else {
                inserted.append(entry.item)
            }
        }
        let removed = previous.filter { table[$0.key] == nil }.map(\.value.item).sorted { Self.bytewise($0, $1) }
        self.previous = table
        let change = CacheChangeSet(items: items, inserted: inserted, removed: removed, updated: updated)
        return change.isEmpty ? nil : change
    }

    static func bytewise(_ lhs: Item, _ rhs: Item) -> Bool {
        let left = (Array(lhs.name.utf8), Array(lhs.path.storageKey.utf8))
        let right = (Array(rhs.name.utf8), Array(rhs.path.storageKey.utf8))
        if left.0 != right.0 { return left.0.lexicographicallyPrecedes(right.0) }
        return left.1.lexicographicallyPrecedes(right.1)
    }
}

import Foundation
import ProviderAPI

/// Keeps recent full listings so that paging through a folder costs one PROPFIND,
/// not one per page. A cursor names a snapshot and an offset; an expired snapshot
/// is fetched again.
actor ListingSnapshots {
    struct Position {
        var folder: String
        var snapshot: String
        var offset: Int

        init(folder: String, snapshot: String, offset: Int) {
            self.folder = folder
            self.snapshot = snapshot
            self.offset = offset
        }

        init?(_ cursor: PageCursor) {
            let parts = cursor.rawValue.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let offset = Int(parts[1]), offset >= 0 else { return nil }
            snapshot = String(parts[0])
            self.offset = offset
            folder = String(parts[2])
        }

        var cursor: PageCursor { PageCursor("\(snapshot)|\(offset)|\(folder)") }
    }

    /// A whole listing: its items, and whether they are every child.
    struct Listing: Sendable {
        var items: [Item]
        var completeness: ListingCompleteness
    }

    private var entries: [String: (listing: Listing, stored: ContinuousClock.Instant)] = [:]
    private let lifetime: Duration = .seconds(300)
    private let capacity = 16

    func store(_ listing: Listing) -> String {
        let now = ContinuousClock.now
        entries = entries.filter { now - $0.value.stored < lifetime }
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.stored < $1.value.stored })?.key {
            entries[oldest] = nil
        }
        let id = UUID().uuidString
        entries[id] = (listing, now)
        return id
    }

    func listing(for snapshot: String) -> Listing? {
        guard let entry = entries[snapshot], ContinuousClock.now - entry.stored < lifetime else { return nil }
        return entry.listing
    }

    func page(_ listing: Listing, folder: ItemPath, offset: Int, limit: Int?, snapshot: String) -> ItemPage {
        let items = listing.items
        let start = min(offset, items.count)
        let end = limit.map { start + min(items.count - start, max(1, $0)) } ?? items.count
        var snapshotID = snapshot
        if entries[snapshot] == nil, end < items.count { snapshotID = store(listing) }
        let next = end < items.count
            ? Position(folder: folder.description, snapshot: snapshotID, offset: end).cursor : nil
        if next == nil { entries[snapshot] = nil }
        return ItemPage(items: Array(items[start..<end]), next: next, totalCount: items.count, completeness: listing.completeness)
    }
}

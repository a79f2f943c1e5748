import Foundation
import ProviderAPI

/// Pages a listing that is read whole (a WebDAV `Depth: 1` `PROPFIND`): the first page reads it,
/// and when more pages follow keeps it as a snapshot the next pages are cut from, so paging
/// through a folder costs one read and every page comes from one listing, whatever is added or
/// removed meanwhile. A cursor (``ListingCursor``) names the snapshot and an offset; once its
/// snapshot has expired (or the process restarted), the listing is read again and the pages go
/// on from the offset.
///
/// An adapter that re-reads a folder cheaply and can sort it by name uses ``ListingPager``
/// instead: its cursor is the last name, and it keeps no state.
///
/// ```swift
/// let pager = SnapshotPager()
/// func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
///     try await pager.page(page, scope: folder.description) {
///         SnapshotPager.Listing(items: try await readWholeFolder(folder))
///     }
/// }
/// ```
public actor SnapshotPager {
    /// A whole listing: its items in the order pages show them, and whether they are every child.
    public struct Listing: Sendable {
        /// The items, in page order.
        public var items: [Item]
        /// Whether the items are every child.
        public var completeness: ListingCompleteness

        /// A listing of `items`.
        public init(items: [Item], completeness: ListingCompleteness = .ended) {
            self.items = items
            self.completeness = completeness
        }
    }

    private var entries: [String: (listing: Listing, stored: ContinuousClock.Instant)] = [:]
    private let lifetime: Duration
    private let capacity: Int

    /// A pager that keeps at most `capacity` snapshots, each for `lifetime` after it was read.
    public init(lifetime: Duration = .seconds(300), capacity: Int = 16) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
    }

    /// The page `request` asks for of the listing `scope`, reading the listing with `read` on
    /// the first page and whenever the cursor's snapshot is gone.
    ///
    /// - Parameters:
    ///   - request: the page asked for: its cursor and limit.
    ///   - scope: the listing's scope, which its cursors carry (the folder's path).
    ///   - owner: the listing in words, for the error of a cursor of another listing (`nil`: "a listing of `scope`").
    ///   - read: reads the whole listing, in page order.
    /// - Throws: `ProviderError.Code.invalidArgument` for a cursor of another listing, and what `read` throws.
    public func page(
        _ request: PageRequest, scope: String, of owner: String? = nil, read: @Sendable () async throws -> Listing
    ) async throws -> ItemPage {
        let limit = request.limit.map { max(1, $0) }
        guard let cursor = request.cursor else {
            let listing = try await read()
            guard let limit, listing.items.count > limit else {
                return ItemPage(items: listing.items, totalCount: listing.items.count, completeness: listing.completeness)
            }
            return cut(listing, from: 0, limit: limit, scope: scope, snapshot: store(listing))
        }
        let position = try ListingCursor.read(cursor, scope: scope, of: owner).position
        let parts = position.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let offset = Int(parts[1]), offset >= 0 else {
            throw ProviderError(.invalidArgument, "the page cursor does not belong to \(owner ?? "a listing of \(scope)")")
        }
        let snapshot = String(parts[0])
        let listing: Listing
        if let kept = kept(snapshot) {
            listing = kept
        } else {
            listing = try await read()
        }
        return cut(listing, from: offset, limit: limit, scope: scope, snapshot: snapshot)
    }

    /// The items of a page of `count` items from `offset`, at most `limit` of them (all when
    /// `nil`), and the offset of the next page (`nil` after the last): the cut every offset pager makes.
    public static func cut(count: Int, offset: Int, limit: Int?) -> (range: Range<Int>, next: Int?) {
        let start = min(max(0, offset), count)
        let end = limit.map { start + min(count - start, max(1, $0)) } ?? count
        return (start..<end, end < count ? end : nil)
    }

    private func cut(_ listing: Listing, from offset: Int, limit: Int?, scope: String, snapshot: String) -> ItemPage {
        let items = listing.items
        let (range, next) = Self.cut(count: items.count, offset: offset, limit: limit)
        var snapshotID = snapshot
        // A listing read again for an expired snapshot is kept under a new one for the pages after.
        if entries[snapshot] == nil, next != nil { snapshotID = store(listing) }
        if next == nil { entries[snapshotID] = nil }
        let cursor = next.map { ListingCursor(position: "\(snapshotID):\($0)", scope: scope).cursor }
        return ItemPage(items: Array(items[range]), next: cursor, totalCount: items.count, completeness: listing.completeness)
    }

    private func store(_ listing: Listing) -> String {
        let now = ContinuousClock.now
        entries = entries.filter { now - $0.value.stored < lifetime }
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.stored < $1.value.stored })?.key {
            entries[oldest] = nil
        }
        let id = UUID().uuidString
        entries[id] = (listing, now)
        return id
    }

    private func kept(_ snapshot: String) -> Listing? {
        guard let entry = entries[snapshot], ContinuousClock.now - entry.stored < lifetime else { return nil }
        return entry.listing
    }
}

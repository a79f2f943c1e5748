import Foundation
import ProviderAPI

/// Sorts a folder's names in byte order and cuts them into pages whose cursor is the last name
/// of the page before: a listing that is stable while entries come and go (a name added or
/// removed before the cursor moves nothing after it), with no state kept between pages. For an
/// adapter that re-reads a folder cheaply; one that reads a folder whole at a cost pages a
/// snapshot of it (``SnapshotPager``).
///
/// The cursor is a ``ListingCursor`` of the folder: one of another listing is refused.
///
/// ```swift
/// let names = ListingPager.sorted(try folder.names())
/// let (page, next) = try ListingPager.page(of: names, request: request, scope: path.description)
/// return ItemPage(items: try page.map { try item(named: $0) }, next: next, totalCount: names.count)
/// ```
public enum ListingPager {
    /// `names` sorted by their UTF-8 bytes (so `B` before `a`, and NFC and NFD spellings apart),
    /// the order every page of a listing keeps.
    public static func sorted(_ names: [String]) -> [String] {
        names.sorted(by: precedes)
    }

    /// Whether `a` comes before `b` in byte order.
    package static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// The names of the page `request` asks for, from names ``sorted(_:)``: those after the
    /// cursor's name, at most `PageRequest.limit` of them (at least 1; all when `nil`), and the
    /// cursor of the next page (`nil` after the last).
    ///
    /// - Parameters:
    ///   - sortedNames: the folder's names, ``sorted(_:)``.
    ///   - request: the page asked for: its cursor and limit.
    ///   - scope: the listing's scope, which its cursors carry (the folder's path).
    ///   - owner: the listing in words, for the error of a cursor of another listing (`nil`: "a listing of `scope`").
    /// - Throws: `ProviderError.Code.invalidArgument` for a cursor of another listing.
    public static func page(
        of sortedNames: [String], request: PageRequest, scope: String, of owner: String? = nil
    ) throws -> (names: ArraySlice<String>, next: PageCursor?) {
        var start = sortedNames.startIndex
        if let cursor = try request.cursor.map({ try ListingCursor.read($0, scope: scope, of: owner).position }) {
            // The first name after the cursor's (binary search: the names are sorted).
            var low = sortedNames.startIndex
            var high = sortedNames.endIndex
            while low < high {
                let middle = (low + high) / 2
                if precedes(cursor, sortedNames[middle]) { high = middle } else { low = middle + 1 }
            }
            start = low
        }
        let end = request.limit.map { min(sortedNames.endIndex, start + max(1, $0)) } ?? sortedNames.endIndex
        let names = sortedNames[start..<end]
        let next = end < sortedNames.endIndex ? names.last.map { ListingCursor(position: $0, scope: scope).cursor } : nil
        return (names, next)
    }
}

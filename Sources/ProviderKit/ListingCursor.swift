import Foundation
import ProviderAPI

/// A page cursor that names the listing it belongs to: a position in that listing (a server's
/// page number, a snapshot and offset, the last name of the page before) and the listing's
/// scope (the folder, or `search`).
///
/// Every adapter refuses a cursor of another listing the same way: ``read(_:scope:of:)`` throws
/// `ProviderError.Code.invalidArgument`, so a cursor of `/a` handed to a listing of `/b` never
/// pages `/b` from a position that means nothing there. The text is `position|scope`, the
/// position with `%` and `|` escaped.
///
/// ```swift
/// let page = try request.cursor.map { try ListingCursor.read($0, scope: folder.description).number() } ?? 0
/// let next = hasMore ? ListingCursor(number: page + 1, scope: folder.description).cursor : nil
/// ```
public struct ListingCursor: Hashable, Sendable {
    /// Where the next page starts, as the adapter wrote it.
    public var position: String
    /// The listing the cursor belongs to: a folder's path, `search`, …
    public var scope: String

    /// A cursor at `position` in the listing `scope`.
    public init(position: String, scope: String) {
        self.position = position
        self.scope = scope
    }

    /// A cursor at a server's page `number` in the listing `scope`.
    public init(number: Int, scope: String) {
        self.init(position: String(number), scope: scope)
    }

    /// The cursor `cursor` if it belongs to the listing `scope`, else `nil`.
    public init?(_ cursor: PageCursor, scope: String) {
        let text = cursor.rawValue
        guard let bar = text.firstIndex(of: "|"), text[text.index(after: bar)...] == scope,
            let position = String(text[..<bar]).removingPercentEncoding
        else { return nil }
        self.init(position: position, scope: scope)
    }

    /// The cursor as a caller holds it.
    public var cursor: PageCursor {
        var escaped = ""
        for character in position {
            switch character {
            case "%": escaped += "%25"
            case "|": escaped += "%7C"
            default: escaped.append(character)
            }
        }
        return PageCursor("\(escaped)|\(scope)")
    }

    /// The position as a page number (0 or more).
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when it is not one.
    public func number() throws -> Int {
        guard let number = Int(position), number >= 0 else {
            throw ProviderError(.invalidArgument, "the page cursor names no page of \(scope)")
        }
        return number
    }

    /// `cursor`, which a caller handed to the listing `scope`.
    ///
    /// - Parameters:
    ///   - cursor: the cursor the caller handed over.
    ///   - scope: the scope of the listing asked for.
    ///   - owner: the listing in words, for the message (`a search`); `nil`: "a listing of `scope`".
    /// - Throws: `ProviderError.Code.invalidArgument` when the cursor belongs to another listing or is none of ours.
    public static func read(_ cursor: PageCursor, scope: String, of owner: String? = nil) throws -> ListingCursor {
        guard let read = ListingCursor(cursor, scope: scope) else {
            throw ProviderError(.invalidArgument, "the page cursor does not belong to \(owner ?? "a listing of \(scope)")")
        }
        return read
    }
}

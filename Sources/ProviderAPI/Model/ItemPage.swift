import Foundation

/// An opaque position in a listing or a search, handed back to get the next page.
public struct PageCursor: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The provider's own encoding of the position.
    public let rawValue: String
    /// Wraps a provider's position.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// One key to sort a listing or a search by.
public struct SortKey: Hashable, Sendable, Codable {
    /// What to sort on.
    public enum Field: String, Hashable, Sendable, Codable { case name, modified, size }
    /// The field.
    public var field: Field
    /// Ascending when `true`.
    public var ascending: Bool
    /// Creates a sort key.
    public init(_ field: Field, ascending: Bool = true) {
        self.field = field
        self.ascending = ascending
    }
}

/// Which page of a listing or search to fetch.
public struct PageRequest: Hashable, Sendable, Codable {
    /// The most items to return; `nil` lets the provider choose (often all).
    public var limit: Int?
    /// Where to continue; `nil` for the first page.
    public var cursor: PageCursor?
    /// Sort order for searches on servers that can sort.
    public var sort: [SortKey]
    /// The optional item fields the caller needs (a hint; see ``ItemFields``).
    public var fields: ItemFields

    /// Creates a page request.
    public init(limit: Int? = nil, cursor: PageCursor? = nil, sort: [SortKey] = [], fields: ItemFields = .all) {
        self.limit = limit
        self.cursor = cursor
        self.sort = sort
        self.fields = fields
    }

    private enum CodingKeys: String, CodingKey { case limit, cursor, sort, fields }

    /// Decodes a request; one encoded before ``fields`` existed asks for every field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        limit = try container.decodeIfPresent(Int.self, forKey: .limit)
        cursor = try container.decodeIfPresent(PageCursor.self, forKey: .cursor)
        sort = try container.decodeIfPresent([SortKey].self, forKey: .sort) ?? []
        fields = try container.decodeIfPresent(ItemFields.self, forKey: .fields) ?? .all
    }

    /// The first page, with the provider's own page size.
    public static let first = PageRequest()
}

/// One page of a listing or a search.
public struct ItemPage: Sendable, Hashable, Codable {
    /// The items of this page.
    public var items: [Item]
    /// The cursor for the next page; `nil` when this is the last.
    public var next: PageCursor?
    /// The total count of the listing or search, where the server tells it.
    ///
    /// In a listing it is a promise a page loop holds the adapter to: the first page's count
    /// must equal the entries of every page, and no page may bring the entries past it (else
    /// ``ProviderError/Code/invalidResponse``, see `PageGuard`). An adapter that only knows a
    /// count it cannot stand behind gives `nil`.
    public var totalCount: Int?
    /// What the adapter knows of the completeness of the listing this page belongs to:
    /// ``ListingCompleteness/partial`` when entries are known to be missing from it,
    /// ``ListingCompleteness/cached`` when it comes from a kept copy, ``ListingCompleteness/counted``
    /// when the server declared the count (``totalCount``, which the page loop then holds the
    /// entries to); ``ListingCompleteness/ended`` (the default) when nothing is known against it,
    /// such as a count the adapter made itself. The page loop joins the pages'.
    public var completeness: ListingCompleteness
    /// Names of the folder that are neither files nor folders (links, FIFOs, devices), which a
    /// listing does not give as items but a transfer must know of (``SkippedEntry``). An adapter
    /// gives them on any one page of the listing.
    public var skipped: [SkippedEntry]

    /// Creates a page.
    public init(
        items: [Item], next: PageCursor? = nil, totalCount: Int? = nil, completeness: ListingCompleteness = .ended,
        skipped: [SkippedEntry] = []
    ) {
        self.items = items
        self.next = next
        self.totalCount = totalCount
        self.completeness = completeness
        self.skipped = skipped
    }

    private enum CodingKeys: String, CodingKey { case items, next, totalCount, completeness, skipped }

    /// Decodes a page; one encoded before ``completeness`` existed is ``ListingCompleteness/ended``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        items = try container.decode([Item].self, forKey: .items)
        next = try container.decodeIfPresent(PageCursor.self, forKey: .next)
        totalCount = try container.decodeIfPresent(Int.self, forKey: .totalCount)
        completeness = try container.decodeIfPresent(ListingCompleteness.self, forKey: .completeness) ?? .ended
        skipped = try container.decodeIfPresent([SkippedEntry].self, forKey: .skipped) ?? []
    }
}

import Foundation

/// A position in a provider's change feed.
public struct ChangeToken: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The provider's own encoding.
    public let rawValue: String
    /// Wraps a provider's token.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// One change in a change feed.
public struct Change: Sendable, Hashable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable { case created, modified, deleted, moved }
    /// What happened.
    public var kind: Kind
    /// The item's path after the change.
    public var path: ItemPath
    /// The path before a move.
    public var previousPath: ItemPath?
    /// The item as it is now, where the feed carries it (never for deletions).
    public var item: Item?

    /// Creates a change.
    public init(kind: Kind, path: ItemPath, previousPath: ItemPath? = nil, item: Item? = nil) {
        self.kind = kind
        self.path = path
        self.previousPath = previousPath
        self.item = item
    }
}

/// The changes since a token, and the token to ask from next time.
public struct ChangeBatch: Sendable, Hashable, Codable {
    /// The changes, oldest first.
    public var changes: [Change]
    /// Where to continue.
    public var next: ChangeToken
    /// Whether more changes are waiting beyond this batch.
    public var hasMore: Bool
    /// Whether the provider lost track and the caller must rescan everything.
    public var resetRequired: Bool

    /// Creates a batch.
    public init(changes: [Change], next: ChangeToken, hasMore: Bool = false, resetRequired: Bool = false) {
        self.changes = changes
        self.next = next
        self.hasMore = hasMore
        self.resetRequired = resetRequired
    }
}

/// Space used and available.
public struct Quota: Sendable, Hashable, Codable {
    /// Bytes used.
    public var used: Int64?
    /// Bytes still available.
    public var available: Int64?
    /// Total bytes, where the server says.
    public var total: Int64?

    /// Creates a quota.
    public init(used: Int64? = nil, available: Int64? = nil, total: Int64? = nil) {
        self.used = used
        self.available = available
        self.total = total ?? used.flatMap { used in available.map { used + $0 } }
    }
}

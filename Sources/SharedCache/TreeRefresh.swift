import Foundation

/// What `CachedProvider.refreshTree(_:maxDepth:)` did.
public struct TreeRefresh: Sendable, Hashable, Codable {
    /// Folders whose listing was asked from the server.
    public var foldersListed: Int
    /// Folders found unchanged without listing them (same etag as their cached listing).
    public var foldersUnchanged: Int
    /// Children that were new or changed and so rewritten in the cache.
    public var itemsChanged: Int

    /// Creates a report.
    public init(foldersListed: Int = 0, foldersUnchanged: Int = 0, itemsChanged: Int = 0) {
        self.foldersListed = foldersListed
        self.foldersUnchanged = foldersUnchanged
        self.itemsChanged = itemsChanged
    }
}

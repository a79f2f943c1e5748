import Foundation

/// What `CachedProvider.refreshTree(_:maxDepth:)` did.
package struct TreeRefresh: Sendable, Hashable, Codable {
    /// Folders whose listing was asked from the server.
    package var foldersListed: Int
    /// Folders found unchanged without listing them (same etag as their cached listing).
    package var foldersUnchanged: Int
    /// Children that were new or changed and so rewritten in the cache.
    package var itemsChanged: Int

    /// Creates a report.
    package init(foldersListed: Int = 0, foldersUnchanged: Int = 0, itemsChanged: Int = 0) {
        self.foldersListed = foldersListed
        self.foldersUnchanged = foldersUnchanged
        self.itemsChanged = itemsChanged
    }
}

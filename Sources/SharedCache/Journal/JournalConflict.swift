import Foundation
import ProviderAPI

/// Why a journal entry was not replayed: the server's item differs from the copy recorded when the
/// action was taken, or the place it writes to is gone. Nothing was changed on the server.
///
/// Resolve it with `SyncJournal.resolve(_:_:on:)` (or `CachedProvider.resolveJournal(_:_:)`), choosing a ``JournalResolution``.
public struct JournalConflict: Sendable, Hashable, Codable {
    /// What differs.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// The item changed on the server since it was last seen (another etag, size or modified time).
        case changedOnServer
        /// The item the action works on (a delete's or move's source) is gone from the server.
        case deletedOnServer
        /// The folder the action writes into is gone from the server.
        case targetFolderGone
        /// Something new (not seen when the action was taken) is at the destination.
        case targetExists
    }

    /// The entry in conflict.
    public var entryID: Int64
    /// The action that was not replayed.
    public var action: JournalAction
    /// When the action was taken.
    public var actionTime: Date
    /// Why.
    public var reason: Reason
    /// The path the conflict is about (the source, the destination, or the missing folder).
    public var path: ItemPath
    /// Mine: the item as last seen when the action was taken (nil when it was new). For an upload,
    /// ``mineContent`` describes the new bytes.
    public var recorded: Item?
    /// The content an upload would have sent.
    public var mineContent: JournalContent?
    /// Theirs: the server's item at ``path`` when the replay checked it; nil when there is none.
    public var server: Item?
    /// When the replay found the conflict.
    public var detectedAt: Date

    /// Creates a conflict (the replay makes them).
    package init(
        entryID: Int64, action: JournalAction, actionTime: Date, reason: Reason, path: ItemPath, recorded: Item?,
        mineContent: JournalContent? = nil, server: Item?, detectedAt: Date = Date()
    ) {
        self.entryID = entryID
        self.action = action
        self.actionTime = actionTime
        self.reason = reason
        self.path = path
        self.recorded = recorded
        self.mineContent = mineContent
        self.server = server
        self.detectedAt = detectedAt
    }
}

/// How the app resolves a ``JournalConflict`` (or a failed entry).
public enum JournalResolution: String, Sendable, Hashable, Codable, CaseIterable {
    /// Keep mine under a new name: an upload or copy goes to a free name beside the server's item
    /// (`name (1).ext`, as `ProviderKit.ConflictNames` makes them), recreating a missing target
    /// folder; a move whose destination was taken moves to a free name. A delete of an item that
    /// changed on the server deletes it anyway (the server's version is then gone, by choice).
    case keepMine
    /// Take the server's: the action is dropped and the cached view refreshed from the server.
    case takeTheirs
    /// Check the server again and replay the action if it now matches (after the folder was
    /// restored, or after a failure that passed).
    case retry
    /// Drop the action, leaving the server as it is (the cached view is refreshed when next read).
    case drop
}

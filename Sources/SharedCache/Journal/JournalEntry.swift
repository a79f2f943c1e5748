import Foundation
import ProviderAPI

/// One pending action of a ``SyncJournal``: what was done offline, when, and the item as it was last seen.
///
/// Entries are replayed in ``id`` order. An id is never reused, so it names the entry for
/// `SyncJournal.resolve(_:_:on:)` for as long as the entry exists.
public struct JournalEntry: Sendable, Hashable, Identifiable {
    /// Where an entry stands.
    public enum State: String, Sendable, Hashable, Codable {
        /// Waiting to be replayed.
        case pending
        /// Being replayed (or the process replaying it died): the next replay checks the server
        /// before acting, so the action is never done twice.
        case replaying
        /// The server's item no longer matches the recorded copy, or the target folder is gone:
        /// waits for `SyncJournal.resolve(_:_:on:)`; ``JournalEntry/conflict`` says why.
        case conflict
        /// The last replay failed with an error that may pass (quota, full disk, server error);
        /// the entry is kept and tried again by the next replay. ``JournalEntry/lastError`` says what failed.
        case failed
    }

    /// The entry's number, increasing in the order actions were taken.
    public let id: Int64
    /// The account (`ProviderAccount.description`) the action belongs to.
    package let account: String
    /// What to do. A later action on the same item may have folded into it (see ``SyncJournal``).
    public var action: JournalAction
    /// The item at ``JournalAction/source`` (move, copy, delete) or at ``JournalAction/path`` (upload,
    /// create folder) as last seen when the action was first taken: etag, id, size and modified time.
    /// `nil` when there was none (a new file or folder).
    public var recorded: Item?
    /// For a move or copy, the item at the destination as last seen; `nil` when the destination was free.
    package var recordedDestination: Item?
    /// When the action was first taken.
    public var recordedAt: Date
    /// Where the entry stands.
    public var state: State
    /// Why the entry is in conflict, when ``state`` is ``JournalEntry/State/conflict``.
    public var conflict: JournalConflict?
    /// How many replays tried it.
    public var attempts: Int
    /// The error of the last failed attempt, when ``state`` is ``JournalEntry/State/failed`` (or the last attempt failed).
    public var lastError: ProviderError?

    /// Creates an entry (the journal makes them; tests and tools may too).
    package init(
        id: Int64, account: String, action: JournalAction, recorded: Item?, recordedDestination: Item? = nil, recordedAt: Date,
        state: State = .pending, conflict: JournalConflict? = nil, attempts: Int = 0, lastError: ProviderError? = nil
    ) {
        self.id = id
        self.account = account
        self.action = action
        self.recorded = recorded
        self.recordedDestination = recordedDestination
        self.recordedAt = recordedAt
        self.state = state
        self.conflict = conflict
        self.attempts = attempts
        self.lastError = lastError
    }
}

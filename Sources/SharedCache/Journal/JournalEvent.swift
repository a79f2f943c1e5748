import Foundation
import ProviderAPI

/// What happened to the journal, as ``SyncJournal/events()`` streams it.
public enum JournalEvent: Sendable, Hashable {
    /// An action was recorded (or folded into the entry it names).
    case recorded(JournalEntry)
    /// An entry was replayed on the server and removed from the journal; the item is what the
    /// server answered (nil for a delete, or when the action folded to nothing).
    case replayed(JournalEntry, Item?)
    /// An entry could not be replayed because the server differs from the recorded copy; nothing was changed.
    case conflict(JournalConflict)
    /// An entry failed with an error that may pass; it is kept and tried again by the next replay.
    case failed(JournalEntry, ProviderError)
    /// An entry was resolved (and removed from the journal, unless the resolution was ``JournalResolution/retry``
    /// and the retry found it still in conflict).
    case resolved(id: Int64, JournalResolution)
}

/// What one replay did.
public struct JournalReplayReport: Sendable, Hashable {
    /// The entries replayed and removed, in order.
    public var replayed: [Int64] = []
    /// The conflicts found (their entries wait for a resolution).
    public var conflicts: [JournalConflict] = []
    /// The entries that failed and were kept, with the error.
    public var failed: [Int64: ProviderError] = [:]
    /// Entries not tried because an earlier entry on an overlapping path waits (in conflict or failed).
    public var heldBack: [Int64] = []
    /// Whether the replay stopped because the server could not be reached; the rest waits.
    public var stoppedOffline = false
    /// The entries left in the journal of this account after the replay.
    public var remaining = 0

    /// An empty report.
    package init() {}
}

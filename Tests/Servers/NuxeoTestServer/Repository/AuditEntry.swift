import Foundation

/// One entry of the repository's audit log (the `NXP_LOGS` table of a real server).
struct AuditEntry: Sendable {
    /// Event ids written to the log.
    enum Event {
        static let created = "documentCreated"
        static let modified = "documentModified"
        static let moved = "documentMoved"
        static let createdByCopy = "documentCreatedByCopy"
        static let trashed = "documentTrashed"
        static let untrashed = "documentUntrashed"
        static let securityUpdated = "documentSecurityUpdated"
        /// Drive's virtual event for a permanent deletion.
        static let deleted = "deleted"
        static let rootRegistered = "rootRegistered"
        static let rootUnregistered = "rootUnregistered"
    }

    /// The audit log id, strictly increasing from 1.
    let id: Int
    let eventId: String
    /// Epoch milliseconds.
    let eventDate: Int64
    /// The user who caused the event.
    let principal: String
    /// The document as it was right after the event (right before it, for deletions).
    let document: DocumentSnapshot
    /// For moves: the ancestors before the move.
    let previousAncestors: [String]?

    var docUuid: String { document.uid }
    var repositoryId: String { "default" }
}

import Foundation

extension Repository {
    /// The highest audit log id (`0` while the log is empty).
    var upperBound: Int { auditLog.last?.id ?? 0 }

    /// Appends an entry for the current state of `uid` (a no-op when it does not exist).
    mutating func log(_ eventId: String, _ uid: String, user: String, previousAncestors: [String]? = nil) {
        guard let doc = documents[uid] else { return }
        let snapshot = DocumentSnapshot(doc, ancestors: ancestors(of: uid).map(\.uid))
        let entry = AuditEntry(
            id: upperBound + 1, eventId: eventId, eventDate: DateCodec.nowMillis(), principal: user,
            document: snapshot, previousAncestors: previousAncestors
        )
        auditLog.append(entry)
    }

    /// Permanently deletes `uid` and its subtree, logging Drive's `deleted` event
    /// for `uid` first (while its ancestry is still known).
    mutating func delete(_ uid: String, user: String) {
        log(AuditEntry.Event.deleted, uid, user: user)
        remove(uid)
    }
}

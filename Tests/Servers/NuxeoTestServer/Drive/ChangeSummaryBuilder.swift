import Foundation

/// Builds the `NuxeoDrive.GetChangeSummary` answer for one user from the audit log
/// (spec §9.1): the entries with `lowerBound < id ≤ upperBound` that concern a
/// document at or below one of the user's synchronization roots, in log order.
struct ChangeSummaryBuilder {
    let repository: Repository
    let registry: SyncRootRegistry
    let user: String
    /// `NuxeoTestServer.Configuration.driveChangeLimit`.
    let limit: Int

    /// The whole summary; a `nil` (or negative) `lowerBound` lists no change.
    func summary(lowerBound: Int?, now: Int64 = DateCodec.nowMillis()) -> NXJSON {
        let upperBound = repository.upperBound
        var changes: [NXJSON] = []
        var tooMany = false
        if let lowerBound, lowerBound >= 0 {
            for entry in repository.auditLog where entry.id > lowerBound && entry.id <= upperBound {
                guard let change = change(for: entry) else { continue }
                changes.append(change)
                if changes.count > limit {
                    tooMany = true
                    changes = []
                    break
                }
            }
        }
        let definitions = registry.activeRoots(of: user, in: repository).map { "default:\($0)" }.joined(separator: ",")
        return .object([
            ("fileSystemChanges", .array(changes)),
            ("syncDate", .int(now / 1000 * 1000)),
            ("upperBound", .int(Int64(upperBound))),
            ("hasTooManyChanges", .bool(tooMany)),
            ("activeSynchronizationRootDefinitions", .string(definitions)),
        ])
    }

    /// The change Drive reports for `entry`, `nil` when it does not concern the user
    /// (outside every root, another user's root event, or a document Drive does not adapt).
    func change(for entry: AuditEntry) -> NXJSON? {
        let doc = entry.document
        let writer = FileSystemItemWriter(user: user)
        let rootID = FileSystemItemWriter.itemID(doc.uid, isRoot: true)
        switch entry.eventId {
        case AuditEntry.Event.rootRegistered:
            guard entry.principal == user, let item = writer.item(doc, root: doc.uid) else { return nil }
            return Self.change(entry, eventId: entry.eventId, item: item, itemID: rootID)
        case AuditEntry.Event.rootUnregistered:
            guard entry.principal == user else { return nil }
            return Self.change(entry, eventId: entry.eventId, item: nil, itemID: rootID)
        default:
            break
        }
        let registered = Set(registry.roots(of: user))
        guard let root = doc.chain.last(where: registered.contains) else {
            // Moved out of every root: Drive sees a deletion at the old place.
            guard entry.eventId == AuditEntry.Event.moved,
                  let old = entry.previousAncestors.map({ $0 + [doc.uid] })?.last(where: registered.contains)
            else { return nil }
            return Self.change(entry, eventId: AuditEntry.Event.deleted, item: nil,
                               itemID: FileSystemItemWriter.itemID(doc.uid, isRoot: doc.uid == old))
        }
        let itemID = FileSystemItemWriter.itemID(doc.uid, isRoot: doc.uid == root)
        switch entry.eventId {
        case AuditEntry.Event.trashed, AuditEntry.Event.deleted:
            return Self.change(entry, eventId: AuditEntry.Event.deleted, item: nil, itemID: itemID)
        default:
            guard let item = writer.item(doc, root: root) else { return nil }
            return Self.change(entry, eventId: Self.driveEventID(entry.eventId), item: item, itemID: itemID)
        }
    }

    /// Drive's name for an audit event (`documentSecurityUpdated` → `securityUpdated`).
    static func driveEventID(_ eventId: String) -> String {
        eventId == AuditEntry.Event.securityUpdated ? "securityUpdated" : eventId
    }

    private static func change(_ entry: AuditEntry, eventId: String, item: NXJSON?, itemID: String) -> NXJSON {
        .object([
            ("repositoryId", .string(entry.repositoryId)),
            ("eventId", .string(eventId)),
            ("eventDate", .int(entry.eventDate)),
            ("docUuid", .string(entry.docUuid)),
            ("fileSystemItem", item ?? .null),
            ("fileSystemItemId", .string(itemID)),
            ("fileSystemItemName", .string(entry.document.title)),
        ])
    }
}

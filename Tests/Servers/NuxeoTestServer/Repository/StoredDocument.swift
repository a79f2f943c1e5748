import Foundation

/// One document of the in-memory repository.
struct StoredDocument: Sendable {
    let uid: String
    var name: String
    var type: DocumentType
    var parentUID: String?
    var title: String?
    var created: Int64?
    var modified: Int64?
    var creator: String?
    var lastContributor: String?
    var contributors: [String] = []
    /// Other properties by xpath (`dc:description`, `note:note`, …).
    var extra: [String: NXJSON] = [:]
    var blob: StoredBlob?
    var sysChange = 1
    var userChange = 0
    var isTrashed = false
    var acls: [StoredACL] = []
    /// Insertion counter, a stable tie-breaker for sorting.
    var sequence: Int

    var isRoot: Bool { parentUID == nil }
    var isFolderish: Bool { type.isFolderish }

    /// `"<sys>-<user>"`, `nil` for the root (as in documentRoot.json).
    var changeToken: String? { isRoot ? nil : "\(sysChange)-\(userChange)" }

    /// `dc:title`, falling back to the name, then to the uid (the root).
    var displayTitle: String {
        if let title, !title.isEmpty { return title }
        return name.isEmpty ? uid : name
    }

    /// Records a modification by `user`: bumps the change token and `dc:modified`.
    mutating func touch(by user: String?, at millis: Int64 = DateCodec.nowMillis()) {
        sysChange += 1
        userChange += 1
        modified = max(millis, (modified ?? 0) + 1)
        if let user {
            lastContributor = user
            if !contributors.contains(user) { contributors.append(user) }
        }
    }

    /// Mutable access to the ACL named `name` (created on demand).
    mutating func withACL(_ name: String, _ body: (inout [StoredACE]) -> Void) {
        if let index = acls.firstIndex(where: { $0.name == name }) {
            body(&acls[index].aces)
            if acls[index].aces.isEmpty { acls.remove(at: index) }
        } else {
            var aces: [StoredACE] = []
            body(&aces)
            if !aces.isEmpty {
                let acl = StoredACL(name: name, aces: aces)
                if name == "local" { acls.insert(acl, at: 0) } else { acls.append(acl) }
            }
        }
    }

    /// Reads a property by xpath, as NXQL and `*` output see it.
    func property(_ xpath: String) -> NXJSON {
        switch xpath {
        case "dc:title": return title.map(NXJSON.string) ?? .null
        case "dc:created": return created.map { .string(DateCodec.w3c($0)) } ?? .null
        case "dc:modified": return modified.map { .string(DateCodec.w3c($0)) } ?? .null
        case "dc:creator": return creator.map(NXJSON.string) ?? .null
        case "dc:lastContributor": return lastContributor.map(NXJSON.string) ?? .null
        case "dc:contributors": return .array(contributors.map(NXJSON.string))
        default: return extra[xpath] ?? .null
        }
    }
}

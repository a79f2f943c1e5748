import Foundation

/// One access control entry, with Nuxeo's id format
/// `username:permission:granted:creator:beginMillis:endMillis`.
struct StoredACE: Sendable, Equatable {
    var username: String
    var permission: String
    var granted: Bool
    var creator: String?
    var begin: Int64?
    var end: Int64?
    var notify: Bool = false
    var comment: String?

    var id: String {
        [username, permission, granted ? "true" : "false", creator ?? "",
         begin.map { String($0) } ?? "", end.map { String($0) } ?? ""].joined(separator: ":")
    }

    /// `pending` before `begin`, `archived` after `end`, else `effective`.
    func status(now: Int64) -> String {
        if let begin, begin > now { return "pending" }
        if let end, end < now { return "archived" }
        return "effective"
    }

    /// `true` for transient users created by an email share.
    var isExternal: Bool { username.hasPrefix("transient/") }
}

/// A named ACL (`local`, or another name given by `acl`).
struct StoredACL: Sendable, Equatable {
    var name: String
    var aces: [StoredACE]
}

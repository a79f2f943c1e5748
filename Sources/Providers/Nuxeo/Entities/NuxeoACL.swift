import Foundation
import ProviderAPI
import HTTPProviderKit

/// One ACL of a document, as the `acls` enricher (key `aces`) or the `@acl` adapter (key `ace`) writes it.
package struct NuxeoACL: Sendable, Hashable {
    /// The ACL name: `local` (the one sharing edits) or `inherited`.
    package var name: String
    /// The entries, in order.
    package var aces: [NuxeoACE]

    /// Creates an ACL.
    package init(name: String, aces: [NuxeoACE]) {
        self.name = name
        self.aces = aces
    }

    /// Reads an ACL object; `nil` when it has no name.
    package init?(json: JSONValue) {
        guard let name = json["name"]?.stringValue else { return nil }
        self.name = name
        let entries = json["aces"]?.arrayValue ?? json["ace"]?.arrayValue ?? []
        aces = entries.compactMap(NuxeoACE.init(json:))
    }
}

/// One access control entry: a grant or denial of a permission to a user or group.
package struct NuxeoACE: Sendable, Hashable {
    /// The ACE id, `user:permission:granted:creator:begin:end` (the user may itself contain `:`).
    package var id: String?
    /// The principal.
    package var username: String
    /// Whether the principal is a transient (external, e-mail) user.
    package var externalUser: Bool?
    /// The permission (`Read`, `ReadWrite`, `Everything`, …).
    package var permission: String
    /// Whether the permission is granted (`false` is a denial).
    package var granted: Bool
    /// Who created the entry.
    package var creator: String?
    /// When the entry starts to apply.
    package var begin: Date?
    /// When it stops applying.
    package var end: Date?
    /// `pending`, `effective` or `archived`.
    package var status: String?
    /// Whether the principal was notified (with `fetch-acls: extended`).
    package var notify: Bool?
    /// The comment (with `fetch-acls: extended`).
    package var comment: String?

    /// Creates an entry.
    package init(
        id: String? = nil, username: String, externalUser: Bool? = nil, permission: String, granted: Bool = true,
        creator: String? = nil, begin: Date? = nil, end: Date? = nil, status: String? = nil,
        notify: Bool? = nil, comment: String? = nil
    ) {
        self.id = id
        self.username = username
        self.externalUser = externalUser
        self.permission = permission
        self.granted = granted
        self.creator = creator
        self.begin = begin
        self.end = end
        self.status = status
        self.notify = notify
        self.comment = comment
    }

    /// Reads an ACE object; `nil` without a principal or permission. With `fetch-acls: username`
    /// the principal is a `user` entity, whose `id` is used.
    package init?(json: JSONValue) {
        let principal = json["username"]?.stringValue ?? json["username"]?["id"]?.stringValue
        guard let principal, let permission = json["permission"]?.stringValue else { return nil }
        self.init(
            id: json["id"]?.stringValue, username: principal, externalUser: json["externalUser"]?.boolValue,
            permission: permission, granted: json["granted"]?.boolValue ?? true,
            creator: json["creator"]?.stringValue ?? json["creator"]?["id"]?.stringValue,
            begin: json["begin"].flatMap(NuxeoDateParser.date(from:)),
            end: json["end"].flatMap(NuxeoDateParser.date(from:)),
            status: json["status"]?.stringValue, notify: json["notify"]?.boolValue,
            comment: json["comment"]?.stringValue)
    }
}

/// The `acls` entity of the `@acl` adapter (`GET /api/v1/id/{uid}/@acl`): a document's ACLs,
/// under the key `acl` (with entries under `ace`, unlike the enricher's `aces`).
package struct NuxeoACLList: NuxeoEntityDecodable, Hashable {
    package static let entityType = "acls"

    /// The ACLs, `local` first as the server writes them.
    package var acls: [NuxeoACL]

    package init(nuxeoJSON json: JSONValue) throws {
        let members = try json.entityMembers("acls")
        let list = try members.optionalArray("acl", in: "acls")
        acls = try list.map { element in
            guard let acl = NuxeoACL(json: element) else {
                throw ProviderError(.invalidResponse, "an ACL of a Nuxeo acls entity needs a name")
            }
            return acl
        }
    }
}

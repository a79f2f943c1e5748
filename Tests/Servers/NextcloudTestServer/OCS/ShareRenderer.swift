import Foundation

/// Writes a share's fields in the recorded order: Nextcloud 18 (link shares) and 24 (user and group
/// shares), or ownCloud 10 (the live 2019 recordings).
struct ShareRenderer {
    let core: ServerCore
    let state: ServerState
    /// The user asking (the owner, or a recipient).
    let viewer: String

    func render(_ share: StoredShare, received: Bool = false, justCreated: Bool = false) -> OCSValue? {
        let store = state.files
        guard let node = store.nodes[share.fileID], let fileOwner = state.fileOwner(share.fileID) else { return nil }
        let itemType = node.isFolder ? "folder" : "file"
        let owner = share.owner
        let ownerName = core.configuration.displayName(owner)
        // The viewer reaches the item through a share it received (a recipient, or a resharer).
        let mounted = fileOwner != viewer
        let path = mounted ? "/\(node.name)" : "/" + store.path(of: share.fileID).joined(separator: "/")
        let storageNumber = Int64((core.configuration.users.keys.sorted().firstIndex(of: fileOwner) ?? 0) + 1)
        let storageID = mounted ? "shared::/\(node.name)" : "home::\(fileOwner)"
        let fileParent = mounted ? (store.roots[viewer] ?? 0) : (node.parent ?? 0)
        let url: OCSValue = share.token.map { .string("\(core.rootURL)/s/\($0)") } ?? .null
        let shareWith: OCSValue = share.type == 3 ? (share.passwordHash.map { .string($0) } ?? .null) : share.shareWith.map { .string($0) } ?? .null
        let withName: OCSValue
        switch share.type {
        case 0: withName = .string(core.configuration.displayName(share.shareWith ?? ""))
        case 1: withName = share.shareWith.map { .string($0) } ?? .null
        default: withName = core.isNextcloud ? .string("(Shared link)") : shareWith
        }
        let common: (head: [(String, OCSValue)], middle: [(String, OCSValue)]) = (
            [("id", .string(String(share.id))), ("share_type", .int(Int64(share.type))), ("uid_owner", .string(owner)),
             ("displayname_owner", .string(ownerName)), ("permissions", .int(Int64(share.permissions)))],
            [("path", .string(path)), ("item_type", .string(itemType)), ("mimetype", .string(node.mimeType))]
        )
        let storage: [(String, OCSValue)] = [
            ("storage_id", .string(storageID)), ("storage", .int(storageNumber)), ("item_source", .int(share.fileID)),
            ("file_source", .int(share.fileID)), ("file_parent", .int(fileParent)), ("file_target", .string("/\(node.name)")),
        ]
        let expiration: OCSValue = share.expiration.map { .string($0) } ?? .null
        if !core.isNextcloud {
            var fields = common.head + [
                ("stime", .int(share.stime)), ("parent", .null), ("expiration", expiration), ("token", share.token.map { .string($0) } ?? .null),
                ("uid_file_owner", .string(fileOwner)), ("displayname_file_owner", .string(core.configuration.displayName(fileOwner))),
            ]
            if received { fields.append(("state", .int(0))) }
            fields += common.middle + storage + [("share_with", shareWith), ("share_with_displayname", withName)]
            if share.type == 3 {
                fields += [("name", .string(share.name)), ("url", url)]
            } else {
                fields.append(("share_with_additional_info", .null))
            }
            fields.append(("mail_send", .int(0)))
            return .object(fields)
        }
        var fields = common.head + [
            ("can_edit", .bool(share.owner == viewer)), ("can_delete", .bool(share.owner == viewer)), ("stime", .int(share.stime)),
            ("parent", .null), ("expiration", expiration), ("token", share.token.map { .string($0) } ?? .null),
            ("uid_file_owner", .string(fileOwner)), ("note", .string(share.note)),
            ("label", share.type == 3 ? .string(share.label) : .null),
            ("displayname_file_owner", .string(core.configuration.displayName(fileOwner))),
        ] + common.middle
        if share.type != 3 {
            let preview = !node.isFolder && (node.mimeType.hasPrefix("text/") || node.mimeType.hasPrefix("image/"))
            fields.append(("has_preview", .bool(preview)))
        }
        fields += storage + [("share_with", shareWith), ("share_with_displayname", withName)]
        if share.type == 3 {
            fields += [("password", share.passwordHash.map { .string($0) } ?? .null), ("send_password_by_talk", .bool(false)), ("url", url)]
        } else {
            if share.type == 0 { fields.append(("share_with_displayname_unique", .string(share.shareWith ?? ""))) }
            fields.append(("status", .array([])))
        }
        fields += [("mail_send", .int(justCreated ? 1 : 0)), ("hide_download", .int(share.hideDownload ? 1 : 0))]
        return .object(fields)
    }
}

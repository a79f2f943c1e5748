import Foundation

extension NuxeoRouter {
    static let validPermissions: Set<String> = ["Read", "ReadWrite", "Write", "Everything", "Remove", "ReadRemove"]
    static let knownGroups: Set<String> = ["members", "administrators", "Everyone"]

    /// `Document.AddPermission`: `users` | `username` | `user` | `email` (+ `end`), `permission`, `acl`, dates.
    func addPermission(uid: String, params: NXJSON, user creator: String) throws {
        guard let permission = params["permission"]?.stringValue, !permission.isEmpty else {
            throw NuxeoError.badRequest("Failed to invoke operation: Document.AddPermission, Failed to inject parameter 'permission'")
        }
        guard Self.validPermissions.contains(permission) else {
            throw NuxeoError.badRequest("Permission '\(permission)' is invalid.")
        }
        var users: [String] = params["users"]?.arrayValue?.compactMap(\.stringValue)
            ?? params["users"]?.stringValue.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        if let single = params["username"]?.stringValue ?? params["user"]?.stringValue { users.append(single) }
        users = users.filter { !$0.isEmpty }
        let begin = try date(params["begin"], "begin")
        let end = try date(params["end"], "end")
        if let email = params["email"]?.stringValue, !email.isEmpty, users.isEmpty {
            guard end != nil else {
                throw NuxeoError.badRequest("'end' parameter must be set when adding a permission for an 'email'")
            }
            users = ["transient/\(email)"]
        }
        guard !users.isEmpty else { throw NuxeoError.badRequest("'users' or 'email' parameters must be set") }
        for name in users where !name.hasPrefix("transient/") {
            guard core.configuration.users[name] != nil || Self.knownGroups.contains(name) else {
                throw NuxeoError.badRequest("User or group name '\(name)' does not exist. Please provide a valid name.")
            }
        }
        let aclName = params["acl"]?.stringValue ?? "local"
        let notify = params["notify"]?.boolValue ?? false
        let comment = params["comment"]?.stringValue
        let block = params["blockInheritance"]?.boolValue ?? false
        core.withState { state in
            state.repository.mutate(uid) { doc in
                doc.withACL(aclName) { aces in
                    for name in users {
                        let ace = StoredACE(username: name, permission: permission, granted: true, creator: creator,
                                            begin: begin, end: end, notify: notify, comment: comment)
                        if !aces.contains(where: { $0.id == ace.id }) { aces.append(ace) }
                    }
                    if block, !aces.contains(where: { $0.username == "Everyone" && !$0.granted }) {
                        aces.append(StoredACE(username: "Everyone", permission: "Everything", granted: false))
                    }
                }
            }
            state.repository.log(AuditEntry.Event.securityUpdated, uid, user: creator)
        }
    }

    /// `Document.RemovePermission`: by ACE `id` or by `user`. An unknown id is
    /// answered 400 (Nuxeo's IllegalParameterException style), not 404.
    func removePermission(uid: String, params: NXJSON, user actor: String) throws {
        let aclName = params["acl"]?.stringValue ?? "local"
        let id = params["id"]?.stringValue
        let user = params["user"]?.stringValue ?? params["username"]?.stringValue
        guard id != nil || user != nil else { throw NuxeoError.badRequest("'id' or 'user' parameter must be set") }
        let removed: Bool = core.withState { state in
            var removed = false
            state.repository.mutate(uid) { doc in
                doc.withACL(aclName) { aces in
                    let before = aces.count
                    aces.removeAll { ace in id.map { ace.id == $0 } ?? (ace.username == user) }
                    removed = aces.count != before
                }
            }
            if removed { state.repository.log(AuditEntry.Event.securityUpdated, uid, user: actor) }
            return removed
        }
        if let id, !removed { throw NuxeoError.badRequest("No ACE found with id '\(id)' in ACL '\(aclName)'") }
    }

    private func date(_ value: NXJSON?, _ name: String) throws -> Int64? {
        guard let value, !value.isNull else { return nil }
        if case .int(let millis) = value { return millis }
        guard let text = value.stringValue, !text.isEmpty else { return nil }
        guard let millis = DateCodec.parse(text) else { throw NuxeoError.badRequest("Invalid date for '\(name)': \(text)") }
        return millis
    }
}

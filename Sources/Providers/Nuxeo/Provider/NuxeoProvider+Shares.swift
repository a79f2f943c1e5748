import Foundation
import ProviderAPI
import HTTPProviderKit

extension NuxeoProvider {
    /// The grants on the item's own (`local`) ACL, read through the `acls` enricher; inherited
    /// entries belong to an ancestor and are not shares of this item.
    public func shares(of path: ItemPath) async throws -> [Share] {
        let document = try await resolver.document(at: path, enrichers: ["acls"])
        return document.acls.filter { $0.name == "local" }.flatMap(\.aces).filter(\.granted).compactMap { ace in
            Self.share(from: ace, at: path)
        }
    }

    /// Grants access with `Document.AddPermission`: to a user or a group, or by email (a
    /// transient user, which Nuxeo only allows with an end date). Public links do not exist in
    /// Nuxeo and are refused as `unsupported` without a request.
    public func share(_ path: ItemPath, with request: ShareRequest) async throws -> Share {
        guard capabilities.shareKinds.contains(request.kind.tag) else {
            throw ProviderError.unsupported("\(request.kind.tag.rawValue) shares on Nuxeo")
        }
        let permission = Self.permission(for: request.permissions)
        var params: [String: JSONValue] = ["permission": .string(permission), "notify": .bool(request.notify)]
        let principal: String
        switch request.kind {
        case .user(let name), .group(let name):
            principal = name
            params["users"] = [.string(name)]
        case .email(let address):
            guard request.expires != nil else {
                throw ProviderError(.invalidArgument, "Nuxeo shares by email need an expiry date")
            }
            principal = "transient/" + address
            params["email"] = .string(address)
        case .publicLink:
            throw ProviderError.unsupported("public links on Nuxeo")
        }
        if let expires = request.expires { params["end"] = .string(NuxeoDateParser.string(from: expires)) }
        if let note = request.note { params["comment"] = .string(note) }
        let uid = try await resolver.uid(of: path)
        _ = try await client.automation(NuxeoAutomationRequest("Document.AddPermission", input: .document(uid), params: params))
        let granted = try await shares(of: path)
        let match = granted.last { share in
            let name = share.properties["username"] ?? ""
            let sameUser = name == principal || (principal.hasPrefix("transient/") && name.hasPrefix(principal))
            return sameUser && share.properties["permission"] == permission
        }
        guard let match else { throw ProviderError(.invalidResponse, "the new permission is not in the ACL of \(path)") }
        return match
    }

    /// Removes the ACE with `Document.RemovePermission`.
    public func revoke(_ share: Share) async throws {
        let uid = try await resolver.uid(of: share.path)
        _ = try await client.automation(NuxeoAutomationRequest(
            "Document.RemovePermission", input: .document(uid), params: ["id": .string(share.id), "acl": "local"]))
    }

    /// The Nuxeo permission for portable share permissions.
    static func permission(for permissions: SharePermissions) -> String {
        if permissions.contains(.reshare) { return "Everything" }
        if permissions.contains(.write) || permissions.contains(.create) { return "ReadWrite" }
        if permissions.contains(.delete) { return "ReadRemove" }
        return "Read"
    }

    /// A portable share for an ACE.
    static func share(from ace: NuxeoACE, at path: ItemPath) -> Share? {
        guard let id = ace.id else { return nil }
        let kind: ShareKind
        if ace.externalUser == true || ace.username.hasPrefix("transient/") {
            let address = ace.username.dropFirst("transient/".count).split(separator: "/").first.map(String.init) ?? ace.username
            kind = .email(address)
        } else if ["members", "administrators", "Everyone", "powerusers"].contains(ace.username) {
            kind = .group(ace.username)
        } else {
            kind = .user(ace.username)
        }
        var permissions: SharePermissions = .read
        switch ace.permission {
        case "Everything": permissions = [.read, .write, .create, .delete, .reshare]
        case "ReadWrite", "Write": permissions = [.read, .write, .create]
        case "ReadRemove", "Remove": permissions = [.read, .delete]
        default: break
        }
        var properties = ["username": ace.username, "permission": ace.permission]
        if let status = ace.status { properties["status"] = status }
        if let creator = ace.creator { properties["creator"] = creator }
        if let begin = ace.begin { properties["begin"] = NuxeoDateParser.string(from: begin) }
        return Share(id: id, path: path, kind: kind, permissions: permissions, expires: ace.end, properties: properties)
    }
}

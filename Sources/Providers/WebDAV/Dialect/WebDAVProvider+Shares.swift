import Foundation
import ProviderAPI

extension WebDAVProvider {
    /// The dialect, or ``ProviderError/Code/unsupported`` for plain WebDAV.
    func requireDialect(_ what: String) throws -> WebDAVDialect {
        guard let dialect else { throw ProviderError.unsupported(what) }
        return dialect
    }

    var ocs: OCSClient? { dialect.map { OCSClient(executor: executor, serverRoot: $0.serverRoot) } }

    /// Where the provider's root lies in the user's files, as segments (empty when the root is the user's home).
    var userRootSegments: [String] {
        guard let dialect else { return [] }
        let root = (try? DAVPathMapper.decodeSegments(mapper.root.path)) ?? []
        let home = (try? DAVPathMapper.decodeSegments(dialect.filesRoot.path)) ?? []
        if root.starts(with: home) { return Array(root.dropFirst(home.count)) }
        if let index = root.firstIndex(of: "remote.php"), root.count > index + 1, root[index + 1] == "webdav" {
            return Array(root.dropFirst(index + 2))
        }
        return []
    }

    /// The path the OCS API uses for an item: relative to the user's home, starting with `/`.
    func userPath(for path: ItemPath) -> String {
        "/" + (userRootSegments + path.segments).joined(separator: "/")
    }

    /// The item path for an OCS path, or `nil` when it lies outside the provider's root.
    func itemPath(forUserPath text: String) throws -> ItemPath? {
        let segments = text.split(separator: "/").map(String.init)
        let prefix = userRootSegments
        guard segments.starts(with: prefix) else { return nil }
        return try ItemPath(segments: Array(segments.dropFirst(prefix.count)))
    }

    /// The shares of the item, from `GET …/files_sharing/api/v1/shares?path=…&reshares=true`.
    public func shares(of path: ItemPath) async throws -> [Share] {
        try capabilities.require(.shares, for: "shares")
        guard let ocs else { throw ProviderError.unsupported("shares") }
        let envelope = try await ocs.call(
            .GET, "apps/files_sharing/api/v1/shares", query: [("path", userPath(for: path)), ("reshares", "true")])
        return try OCSShareMapper.shares(envelope.data) { try itemPath(forUserPath: $0) }
    }

    /// Creates a share with `POST …/files_sharing/api/v1/shares`: a public link (with an optional
    /// password and expiry), a user, group or e-mail share.
    public func share(_ path: ItemPath, with request: ShareRequest) async throws -> Share {
        try capabilities.require(.shares, for: "sharing")
        guard capabilities.shareKinds.contains(request.kind.tag), let ocs else {
            throw ProviderError.unsupported("\(request.kind.tag.rawValue) shares on this server")
        }
        var request = request
        if request.kind == .publicLink, request.permissions.subtracting(.read).isEmpty == false {
            // A public link on a file can only be read (and updated): creation and deletion are folder rights.
            if try await item(at: path).kind == .file { request.permissions.subtract([.create, .delete]) }
        }
        let envelope = try await ocs.call(
            .POST, "apps/files_sharing/api/v1/shares", form: OCSShareMapper.createParameters(request, path: userPath(for: path)))
        let object = envelope.data.arrayValue?.first ?? envelope.data
        guard let share = try OCSShareMapper.share(object, path: { try itemPath(forUserPath: $0) ?? path }) else {
            throw ProviderError(.invalidResponse, "the server answered the new share without a path")
        }
        return share
    }

    /// Deletes a share with `DELETE …/files_sharing/api/v1/shares/ID`.
    public func revoke(_ share: Share) async throws {
        try capabilities.require(.shares, for: "revoking shares")
        guard let ocs else { throw ProviderError.unsupported("revoking shares") }
        _ = try await ocs.call(.DELETE, "apps/files_sharing/api/v1/shares/\(try Self.shareID(share.id))")
    }

    /// One share by its id (`GET …/shares/ID`).
    ///
    /// - Throws: `ProviderError.Code.notFound` when there is no such share.
    package func share(id: String) async throws -> Share {
        try capabilities.require(.shares, for: "shares")
        guard let ocs else { throw ProviderError.unsupported("shares") }
        let envelope = try await ocs.call(.GET, "apps/files_sharing/api/v1/shares/\(try Self.shareID(id))")
        guard let share = try OCSShareMapper.shares(envelope.data, path: { try itemPath(forUserPath: $0) }).first else {
            throw ProviderError(.notFound, "share \(id) is outside this provider's root or does not exist")
        }
        return share
    }

    /// Changes a share's permissions, password, expiry or note (`PUT …/shares/ID`, one field per
    /// request, as ownCloud 10 requires), and returns it as the server now has it. An empty
    /// password removes the password; `clearExpiry` removes the expiry.
    public func updateShare(
        _ share: Share, permissions: SharePermissions? = nil, password: String? = nil, expires: Date? = nil,
        clearExpiry: Bool = false, note: String? = nil
    ) async throws -> Share {
        try capabilities.require(.shares, for: "updating shares")
        guard let ocs else { throw ProviderError.unsupported("updating shares") }
        var fields: [(String, String)] = []
        if let permissions { fields.append(("permissions", String(OCSShareMapper.bits(permissions)))) }
        if let password { fields.append(("password", password)) }
        if let expires { fields.append(("expireDate", OCSShareMapper.expireDate(expires))) }
        if clearExpiry { fields.append(("expireDate", "")) }
        if let note { fields.append(("note", note)) }
        let id = try Self.shareID(share.id)
        for field in fields {
            _ = try await ocs.call(.PUT, "apps/files_sharing/api/v1/shares/\(id)", form: [field])
        }
        return try await self.share(id: share.id)
    }

    /// A share id as one URL segment; ids are numbers (Nextcloud may prefix them, `ocinternal:12`).
    static func shareID(_ id: String) throws -> String {
        guard !id.isEmpty, id.utf8.count < 128 else { throw ProviderError(.invalidArgument, "invalid share id") }
        return DAVPathMapper.encode(segment: id)
    }
}

import Foundation
import Hummingbird

/// A user's files, at `/remote.php/dav/files/USER/…` or the legacy `/remote.php/webdav/…`.
struct FilesEndpoint {
    let core: ServerCore
    let user: String
    /// `/remote.php/webdav` or `/remote.php/dav/files/USER` (percent-encoded, no trailing slash).
    let hrefBase: String
    /// The target, relative to the user's root.
    let path: [String]

    func respond(_ req: ServerRequest) throws -> Response {
        switch req.method {
        case "PROPFIND": return try propfind(req)
        case "PROPPATCH": return try proppatch(req)
        case "GET": return try get(req, head: false)
        case "HEAD": return try get(req, head: true)
        case "PUT": return try put(req)
        case "MKCOL": return try mkcol(req)
        case "DELETE": return try delete(req)
        case "MOVE": return try transfer(req, move: true)
        case "COPY": return try transfer(req, move: false)
        case "REPORT": return try report(req)
        case "SEARCH": return try SearchEndpoint(core: core, user: user).respond(req)
        default: throw SabreError(501, "Sabre\\DAV\\Exception\\NotImplemented", "There was no plugin in the system that was willing to handle this \(req.method) method.")
        }
    }

    /// The target path as Sabre names it in messages (`test/folder41/file1.txt`).
    var relative: String { path.joined(separator: "/") }

    /// The href of a node: the base, the encoded path, a `/` after folders.
    static func href(base: String, store: FileStore, id: Int64) -> String {
        let parts = store.path(of: id)
        let folder = store.nodes[id]?.isFolder ?? false
        let encoded = parts.map { FormCodec.encodePath($0) }.joined(separator: "/")
        if parts.isEmpty { return base + "/" }
        return base + "/" + encoded + (folder ? "/" : "")
    }

    func rootID(_ state: inout ServerState) -> Int64 {
        state.files.root(of: user, now: ServerCore.now)
    }

    /// The node at `parts` for this user: own files, or inside a received share.
    func locate(_ state: inout ServerState, _ parts: [String]) -> Located? {
        _ = rootID(&state)
        return state.locate(user: user, parts, groups: core.configuration.groups)
    }

    /// The href of the item at `parts` (below this endpoint's base).
    func href(_ parts: [String], folder: Bool) -> String {
        if parts.isEmpty { return hrefBase + "/" }
        return hrefBase + "/" + parts.map { FormCodec.encodePath($0) }.joined(separator: "/") + (folder ? "/" : "")
    }

    /// 403 unless the share a node is reached through grants `bit` (2 update, 4 create, 8 delete).
    static func require(_ bit: Int, of located: Located, _ what: String) throws {
        guard let share = located.share else { return }
        if share.permissions & bit == 0 { throw SabreError.forbidden("The share does not allow \(what)") }
    }

    /// The property context for a node reached as `located` (the owner and permissions of a received share).
    func propertyContext(_ state: ServerState, rootID: Int64, located: Located) -> PropertyContext {
        var context = propertyContext(state, rootID: rootID)
        if let share = located.share {
            let owner = state.fileOwner(located.id) ?? share.owner
            context.owner = owner
            context.ownerDisplayName = core.configuration.displayName(owner)
            context.share = share
            context.mountRoot = located.isMountRoot
        }
        return context
    }

    func propertyContext(_ state: ServerState, rootID: Int64) -> PropertyContext {
        PropertyContext(
            flavor: core.flavor, instanceID: core.instanceID, owner: user,
            ownerDisplayName: core.configuration.displayName(user), store: state.files, rootID: rootID,
            quota: core.configuration.quotaBytes, shareTypes: state.shares.types(owner: user), baseURL: core.rootURL)
    }

    /// 423 when the path (or a file below a folder being changed) is locked by a fault.
    func checkLock(_ parts: [String]) throws {
        if core.faults.isLocked(user: user, path: parts.joined(separator: "/")) {
            throw SabreError.locked(parts.joined(separator: "/"))
        }
    }

    /// Refuses names Nextcloud and ownCloud refuse (`View::verifyPath`): the blacklisted `.htaccess`
    /// ("File name is a reserved word") and names with a backslash or a control character.
    static func checkName(_ name: String) throws {
        if name.lowercased() == ".htaccess" {
            throw SabreError(400, "OCA\\DAV\\Connector\\Sabre\\Exception\\InvalidPath", "File name is a reserved word")
        }
        if name.contains("\\") || name.unicodeScalars.contains(where: { $0.value < 0x20 }) || name == "." || name == ".." {
            throw SabreError(400, "OCA\\DAV\\Connector\\Sabre\\Exception\\InvalidPath", "File name contains at least one invalid character")
        }
    }

    /// `If-Match`, the entity tags of `If`, and `If-None-Match` against the node's etag (`nil`: nothing there).
    static func checkPreconditions(_ req: ServerRequest, etag: String?) throws {
        if let ifMatch = req.header("If-Match") {
            let wanted = ifMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let ok = etag.map { tag in wanted.contains("*") || wanted.contains("\"\(tag)\"") || wanted.contains(tag) } ?? false
            if !ok {
                throw SabreError.preconditionFailed(
                    "An If-Match header was specified, but none of the specified the ETags matched.", header: "If-Match")
            }
        }
        // RFC 4918 10.4: the entity tags of an untagged `If` list (`(["etag"])`), which sabre/dav
        // checks like If-Match (lock tokens are not kept here, so only entity tags count).
        if let condition = req.header("If")?.trimmingCharacters(in: .whitespaces), condition.hasPrefix("(") {
            let tags = condition.split(separator: "[").dropFirst().compactMap { $0.split(separator: "]").first }
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let current = etag.map { "\"\($0)\"" }
            if !tags.isEmpty, !tags.contains(where: { $0 == current || $0 == current.map { "W/" + $0 } }) {
                throw SabreError.preconditionFailed("An If header was specified, but none of its conditions was met.", header: "If")
            }
        }
        if let ifNoneMatch = req.header("If-None-Match"), let etag {
            let wanted = ifNoneMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if wanted.contains("*") || wanted.contains("\"\(etag)\"") {
                throw SabreError.preconditionFailed(
                    "An If-None-Match header was specified, but the ETag matched (or * was specified).", header: "If-None-Match")
            }
        }
    }

    /// The `Depth` header of the collections that list one level (trash, uploads, public links):
    /// `0`, else 1.
    static func depth(_ req: ServerRequest) -> Int {
        req.header("Depth")?.trimmingCharacters(in: .whitespaces) == "0" ? 0 : 1
    }

    /// The `Depth` of a PROPFIND on files, as Sabre reads it (`getHTTPDepth(1)`): `0`, `1`, `nil` for
    /// `infinity`; absent or unreadable is 1. ownCloud 10 and Nextcloud both set
    /// `enablePropfindDepthInfinity = true` (`OCA\DAV\Connector\Sabre\Server`), so `infinity` lists the
    /// whole tree below the target.
    static func propfindDepth(_ req: ServerRequest) -> Int? {
        switch req.header("Depth")?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "0": return 0
        case "infinity": return nil
        default: return 1
        }
    }
}

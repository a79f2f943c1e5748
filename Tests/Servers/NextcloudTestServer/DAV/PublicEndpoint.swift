import Foundation
import Hummingbird
import ProviderAPI

/// Public links: `GET /s/TOKEN` (the share page), `GET /s/TOKEN/download` (a shared file's bytes),
/// and WebDAV inside the shared item at `/public.php/webdav/…` with Basic auth `TOKEN:password`
/// (Nextcloud 13+): PROPFIND Depth 0/1, GET, HEAD, and PUT/MKCOL when the link allows creating
/// (permission 4). A password-protected link asks for the password through Basic auth on both
/// paths; an expired or deleted link is 404.
struct PublicEndpoint {
    let core: ServerCore

    /// The live link share with `token`, `nil` when unknown or expired.
    private func share(_ token: String, _ state: ServerState) -> StoredShare? {
        guard let share = state.shares.shares.values.first(where: { $0.type == 3 && $0.token == token }) else { return nil }
        if let expiration = share.expiration, let day = Self.day(expiration), day.addingTimeInterval(86_400) < Date() { return nil }
        guard let root = state.files.roots[share.owner], state.files.isInside(share.fileID, root) else { return nil }
        return share
    }

    static func day(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: text)
    }

    /// `nil` when the request may use the share, else the 401 answer.
    private func checkPassword(_ share: StoredShare, _ req: ServerRequest, token: String) -> Response? {
        guard let hash = share.passwordHash else { return nil }
        if let header = req.header("Authorization"), header.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":"),
            text[..<colon] == token, ShareAPI.verify(String(text[text.index(after: colon)...]), hash: hash) {
            return nil
        }
        var error = SabreError(401, "Sabre\\DAV\\Exception\\NotAuthenticated", "Cannot authenticate over ajax calls")
        error.extraHeaders = [("WWW-Authenticate", "Basic realm=\"\(core.isNextcloud ? "Nextcloud" : "ownCloud")\", charset=\"UTF-8\"")]
        return error.response
    }

    /// `/s/TOKEN[/download]`.
    func link(_ req: ServerRequest, segments: [String]) -> Response {
        let notFound = Reply.bytes(Data("<!DOCTYPE html><html><body>Share not found</body></html>".utf8), status: 404, headers: [("Content-Type", "text/html; charset=UTF-8")])
        guard let token = segments.first else { return notFound }
        let found = core.withState { state -> (StoredShare, FileNode)? in
            guard let share = share(token, state), let node = state.files.nodes[share.fileID] else { return nil }
            return (share, node)
        }
        guard let (share, node) = found else { return notFound }
        if let refusal = checkPassword(share, req, token: token) { return refusal }
        if segments.count == 1 {
            let page = "<!DOCTYPE html><html><head><title>\(XMLText.escape(node.name))</title></head><body>\(XMLText.escape(node.name))</body></html>"
            return Reply.bytes(Data(page.utf8), headers: [("Content-Type", "text/html; charset=UTF-8")])
        }
        guard segments.count == 2, segments[1] == "download", !node.isFolder, share.permissions & 1 != 0 else { return notFound }
        return Reply.bytes(node.data, headers: [
            ("Content-Type", node.mimeType), ("ETag", "\"\(node.etag)\""),
            ("Content-Disposition", "attachment; filename*=UTF-8''\(FormCodec.encodePath(node.name)); filename=\"\(node.name.replacingOccurrences(of: "\"", with: ""))\""),
        ])
    }

    /// `/public.php/webdav/…`.
    func webdav(_ req: ServerRequest, path: [String]) -> Response {
        guard let header = req.header("Authorization"), header.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return Authentication.challenge(core.flavor, sentCredentials: false).response }
        let token = String(text[..<colon])
        guard let share = core.withState({ share(token, $0) }) else { return Authentication.challenge(core.flavor, sentCredentials: true).response }
        if let refusal = checkPassword(share, req, token: token) { return refusal }
        do {
            return try serve(req, share: share, path: path)
        } catch let error as SabreError {
            return error.response
        } catch {
            return SabreError(500, "Sabre\\DAV\\Exception", "Internal error").response
        }
    }

    private func serve(_ req: ServerRequest, share: StoredShare, path: [String]) throws -> Response {
        let base = "/public.php/webdav"
        let relative = path.joined(separator: "/")
        switch req.method {
        case "PROPFIND":
            guard share.permissions & 1 != 0 else { throw SabreError.notFound(relative) }
            let request = try PropfindRequest.parse(req.body)
            let depth = FilesEndpoint.depth(req)
            let text = try core.withState { state -> String in
                guard let target = state.files.resolve(share.fileID, path) else { throw SabreError.notFound(relative) }
                let context = PropertyContext(
                    flavor: core.flavor, instanceID: core.instanceID, owner: share.owner,
                    ownerDisplayName: core.configuration.displayName(share.owner), store: state.files, rootID: share.fileID,
                    quota: nil, shareTypes: [:], baseURL: core.rootURL)
                var writer = MultistatusWriter(flavor: core.flavor)
                let prefix = state.files.path(of: share.fileID).count
                for id in state.files.subtree(target, depth: depth) {
                    guard let node = state.files.nodes[id] else { continue }
                    let parts = state.files.path(of: id).dropFirst(prefix).map { FormCodec.encodePath($0) }
                    let href = base + "/" + parts.joined(separator: "/") + (node.isFolder && !parts.isEmpty ? "/" : "")
                    let split = request.split(node, context: context, isRoot: id == share.fileID)
                    writer.response(href: href, found: split.found, groups: [("404 Not Found", split.missing)])
                }
                return writer.finish()
            }
            return Reply.xml(text)
        case "GET", "HEAD":
            guard share.permissions & 1 != 0 else { throw SabreError.notFound(relative) }
            let node = try core.withState { state -> FileNode in
                guard let id = state.files.resolve(share.fileID, path), let node = state.files.nodes[id] else { throw SabreError.notFound(relative) }
                return node
            }
            guard !node.isFolder else { throw SabreError.methodNotAllowed("A folder cannot be downloaded") }
            let headers = [("Content-Type", node.mimeType), ("ETag", "\"\(node.etag)\"")]
            return req.method == "HEAD"
                ? Reply.bytes(Data(), headers: headers + [("Content-Length", String(node.data.count))])
                : Reply.bytes(node.data, headers: headers)
        case "PUT", "MKCOL":
            guard share.permissions & 4 != 0, let name = path.last else { throw SabreError.forbidden("This link does not allow uploads") }
            try FilesEndpoint.checkName(name)
            let created = try core.withState { state -> Bool in
                guard let parent = state.files.resolve(share.fileID, Array(path.dropLast())), state.files.nodes[parent]?.isFolder == true else {
                    throw SabreError.conflict("Parent node does not exist")
                }
                let existing = state.files.nodes[parent]?.children[name]
                let now = ServerCore.now
                if req.method == "MKCOL" {
                    if existing != nil { throw SabreError.methodNotAllowed("The resource you tried to create already exists") }
                    _ = state.files.newFolder(name: name, parent: parent, now: now)
                    return true
                }
                if existing != nil, share.permissions & 2 == 0 { throw SabreError.forbidden("This link does not allow overwriting") }
                let checksum = core.isNextcloud ? req.header("OC-Checksum") : Checksums.ownCloudList(req.body)
                return state.files.writeFile(name: name, parent: parent, data: req.body, mtime: now, checksum: checksum, now: now).created
            }
            return Reply.empty(created ? 201 : 204)
        default:
            throw SabreError.methodNotAllowed("Method \(req.method) is not allowed on a public link")
        }
    }
}

import Foundation
import Hummingbird
import HTTPProviderKit

/// Nextcloud's file versions (files_versions, developer manual `client_apis/WebDAV/versions`):
///
/// - `PROPFIND /remote.php/dav/versions/USER/versions/FILEID` lists the older contents of a file,
///   each named by its modification time, with `d:getcontentlength`, `d:getcontenttype`,
///   `d:getlastmodified` and `d:getetag` (the name, unquoted, as `VersionFile::getETag` answers);
///   the collection itself has no etag or file id;
/// - `GET …/FILEID/REV` reads one, `DELETE …/FILEID/REV` removes it;
/// - `MOVE …/FILEID/REV` to `/remote.php/dav/versions/USER/restore/<any name>` restores it (201): the
///   current content is kept as a version first, the restored one leaves the list and the file takes
///   its content and modification time. `COPY` there is 403, as Sabre's copy into the restore folder
///   (`createFile` refused) answers.
///
/// A version is made whenever a non-empty file is overwritten (``FileStore/keepVersion(of:)``).
/// ownCloud keeps its versions elsewhere (`/remote.php/dav/meta/…`), so there this tree is 404.
struct VersionsEndpoint {
    let core: ServerCore
    let user: String
    /// The segments after `versions/USER`.
    let path: [String]

    var hrefBase: String { "/remote.php/dav/versions/\(FormCodec.encodePath(user))" }

    func respond(_ req: ServerRequest) throws -> Response {
        guard core.isNextcloud else { throw SabreError.notFound("versions") }
        switch path.count {
        case 0: return try collection(req, href: hrefBase + "/")
        case 1 where path[0] == "versions" || path[0] == "restore":
            return try collection(req, href: hrefBase + "/\(path[0])/")
        case 2 where path[0] == "versions": return try versionList(req, fileID: path[1])
        case 3 where path[0] == "versions": return try version(req, fileID: path[1], revision: path[2])
        default: throw SabreError.notFound(path.joined(separator: "/"))
        }
    }

    private func collection(_ req: ServerRequest, href: String) throws -> Response {
        guard req.method == "PROPFIND" else { throw SabreError.methodNotAllowed("Method \(req.method) is not allowed here") }
        var writer = MultistatusWriter(flavor: core.flavor)
        writer.response(href: href, found: [(.d("resourcetype"), .xml(MultistatusWriter.collection))])
        return Reply.xml(writer.finish())
    }

    /// The file `text` names, when this user reaches it (own files or a received share); 404 otherwise.
    /// The segment is read as `VersionRoot::getChild` reads it, with PHP's `(int)`: the `OC-FileId`
    /// form `00000026oc…` (nc-py-api's `get_versions` of a freshly uploaded file) is file 26.
    private func file(_ state: ServerState, _ text: String) throws -> FileNode {
        let id = SearchQuery.phpInt(text)
        guard let node = state.files.nodes[id], !node.isFolder else {
            throw SabreError.notFound("File not found: \(text)")
        }
        let owner = state.fileOwner(id)
        let reachable = owner == user || state.mounts(for: user, groups: core.configuration.groups).contains {
            state.files.isInside(id, $0.share.fileID)
        }
        guard owner != nil, reachable else { throw SabreError.notFound("File not found: \(text)") }
        return node
    }

    private func versionList(_ req: ServerRequest, fileID: String) throws -> Response {
        guard req.method == "PROPFIND" else { throw SabreError.methodNotAllowed("Method \(req.method) is not allowed here") }
        let request = try PropfindRequest.parse(req.body)
        let depth = FilesEndpoint.depth(req)
        let text = try core.withState { state -> String in
            let node = try file(state, fileID)
            // Sabre builds the hrefs from the path asked for, so they keep the caller's spelling of the id.
            let base = hrefBase + "/versions/\(FormCodec.encodePath(fileID))"
            var writer = MultistatusWriter(flavor: core.flavor)
            write(&writer, href: base + "/", version: nil, request: request)
            if depth > 0 {
                for version in state.files.versions[node.id] ?? [] {
                    write(&writer, href: base + "/\(version.revision)", version: version, request: request)
                }
            }
            return writer.finish()
        }
        return Reply.xml(text)
    }

    private func version(_ req: ServerRequest, fileID: String, revision: String) throws -> Response {
        switch req.method {
        case "PROPFIND":
            let request = try PropfindRequest.parse(req.body)
            let text = try core.withState { state -> String in
                let node = try file(state, fileID)
                let version = try find(state, node, revision)
                var writer = MultistatusWriter(flavor: core.flavor)
                write(&writer, href: hrefBase + "/versions/\(FormCodec.encodePath(fileID))/\(version.revision)", version: version, request: request)
                return writer.finish()
            }
            return Reply.xml(text)
        case "GET", "HEAD":
            let version = try core.withState { state in try find(state, try file(state, fileID), revision) }
            let headers = [
                ("Content-Type", version.mimeType), ("ETag", "\(version.revision)"),
                ("Last-Modified", HTTPDate.format(Date(timeIntervalSince1970: TimeInterval(version.revision)))),
            ]
            if req.method == "HEAD" {
                return Reply.bytes(Data(), headers: headers + [("Content-Length", String(version.data.count))])
            }
            return Reply.bytes(version.data, headers: headers)
        case "DELETE":
            try core.withState { state in
                let node = try file(state, fileID)
                _ = try find(state, node, revision)
                state.files.versions[node.id]?.removeAll { String($0.revision) == revision }
            }
            return Reply.empty(204)
        case "MOVE", "COPY":
            let target = Destination.davSegments(req.header("Destination") ?? "")
            guard target.count == 4, target[0] == "versions", target[1] == user, target[2] == "restore" else {
                throw SabreError.forbidden("A version can only be restored, by a MOVE to \(hrefBase)/restore/target")
            }
            guard req.method == "MOVE" else { throw SabreError.forbidden() }
            try core.withState { state in
                let node = try file(state, fileID)
                let version = try find(state, node, revision)
                let now = ServerCore.now
                state.files.versions[node.id]?.removeAll { $0.revision == version.revision }
                state.files.keepVersion(of: node)
                state.files.nodes[node.id]?.data = version.data
                state.files.nodes[node.id]?.mtime = version.revision
                state.files.nodes[node.id]?.checksum = nil
                state.files.nodes[node.id]?.etag = Identifiers.fileETag()
                if let parent = node.parent { state.files.propagate(from: parent, now: now, touchMtime: false) }
            }
            return Reply.empty(201)
        default:
            throw SabreError.methodNotAllowed("Method \(req.method) is not allowed here")
        }
    }

    private func find(_ state: ServerState, _ node: FileNode, _ revision: String) throws -> FileVersion {
        guard let version = (state.files.versions[node.id] ?? []).first(where: { String($0.revision) == revision }) else {
            throw SabreError.notFound("Version \(revision) of file \(node.id) not found")
        }
        return version
    }

    /// One entry: the collection (`version` nil: only `d:resourcetype`) or a version.
    private func write(_ writer: inout MultistatusWriter, href: String, version: FileVersion?, request: PropfindRequest) {
        let names: [QName]
        switch request {
        case .allprop: names = [.d("getlastmodified"), .d("getcontentlength"), .d("resourcetype"), .d("getetag"), .d("getcontenttype")]
        case .props(let list): names = list
        }
        var found: [(QName, PropValue)] = []
        var missing: [QName] = []
        for name in names {
            switch (name, version) {
            case (.d("resourcetype"), nil): found.append((name, .xml(MultistatusWriter.collection)))
            case (.d("resourcetype"), _?): found.append((name, .xml("")))
            case (.d("getcontentlength"), let version?): found.append((name, .text(String(version.data.count))))
            case (.d("getcontenttype"), let version?): found.append((name, .text(version.mimeType)))
            case (.d("getetag"), let version?): found.append((name, .text(String(version.revision))))
            case (.d("getlastmodified"), let version?):
                found.append((name, .text(HTTPDate.format(Date(timeIntervalSince1970: TimeInterval(version.revision))))))
            default: missing.append(name)
            }
        }
        if case .allprop = request { missing = [] }
        writer.response(href: href, found: found, groups: [("404 Not Found", missing)])
    }
}

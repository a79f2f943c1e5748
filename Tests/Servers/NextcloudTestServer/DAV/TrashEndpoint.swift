import Foundation
import Hummingbird

/// Nextcloud's trash bin: `PROPFIND /remote.php/dav/trashbin/USER/trash` (Depth 1) lists
/// `<name>.d<time>` entries with `nc:trashbin-filename`, `nc:trashbin-original-location` and
/// `nc:trashbin-deletion-time`; `MOVE trash/<entry>` to `…/trashbin/USER/restore/<name>` restores
/// (to the original folder, or the root when that folder is gone); `DELETE trash/<entry>` removes
/// one entry and `DELETE trash` empties the bin.
struct TrashEndpoint {
    let core: ServerCore
    let user: String
    let path: [String]

    var hrefBase: String { "/remote.php/dav/trashbin/\(FormCodec.encodePath(user))" }

    func respond(_ req: ServerRequest) throws -> Response {
        guard let area = path.first else {
            if req.method == "PROPFIND" {
                var writer = MultistatusWriter(flavor: core.flavor)
                writer.response(href: hrefBase + "/", found: [(.d("resourcetype"), .xml(MultistatusWriter.collection))])
                return Reply.xml(writer.finish())
            }
            throw SabreError.methodNotAllowed("Method \(req.method) is not allowed here")
        }
        switch (area, req.method) {
        case ("trash", "PROPFIND"): return try list(req)
        case ("trash", "DELETE"): return try delete()
        case ("trash", "MOVE"): return try restore(req)
        case ("restore", "PROPFIND"):
            var writer = MultistatusWriter(flavor: core.flavor)
            writer.response(href: hrefBase + "/restore/", found: [(.d("resourcetype"), .xml(MultistatusWriter.collection))])
            return Reply.xml(writer.finish())
        case ("trash", _), ("restore", _): throw SabreError.methodNotAllowed("Method \(req.method) is not allowed here")
        default: throw SabreError.notFound(path.joined(separator: "/"))
        }
    }

    private func entry(_ state: ServerState, _ name: String) throws -> TrashEntry {
        guard let entry = (state.files.trash[user] ?? []).first(where: { $0.trashName == name }) else {
            throw SabreError.notFound(name)
        }
        return entry
    }

    private func list(_ req: ServerRequest) throws -> Response {
        let request = try PropfindRequest.parse(req.body)
        let depth = FilesEndpoint.depth(req)
        let text = try core.withState { state -> String in
            let root = state.files.root(of: user, now: ServerCore.now)
            let context = PropertyContext(
                flavor: core.flavor, instanceID: core.instanceID, owner: user, ownerDisplayName: core.configuration.displayName(user),
                store: state.files, rootID: root, quota: core.configuration.quotaBytes, shareTypes: [:], baseURL: core.rootURL)
            var writer = MultistatusWriter(flavor: core.flavor)
            let entries = state.files.trash[user] ?? []
            if path.count > 1 {
                let found = try entry(state, path[1])
                guard path.count == 2, let node = state.files.nodes[found.nodeID] else { throw SabreError.notFound(path.joined(separator: "/")) }
                write(&writer, found, node, request, context)
                return writer.finish()
            }
            let folder = FileNode(
                id: -1, name: "trash", isFolder: true, parent: nil, mtime: ServerCore.now, etag: Identifiers.folderETag(serial: 0),
                creationTime: 0, uploadTime: 0, mimeType: "httpd/unix-directory")
            let split = request.split(folder, context: context, isRoot: true)
            writer.response(href: hrefBase + "/trash/", found: split.found.filter { $0.0 == .d("resourcetype") }, groups: [])
            if depth > 0 {
                for item in entries.sorted(by: { $0.deletionTime == $1.deletionTime ? $0.name < $1.name : $0.deletionTime < $1.deletionTime }) {
                    guard let node = state.files.nodes[item.nodeID] else { continue }
                    write(&writer, item, node, request, context)
                }
            }
            return writer.finish()
        }
        return Reply.xml(text)
    }

    private func write(_ writer: inout MultistatusWriter, _ entry: TrashEntry, _ node: FileNode, _ request: PropfindRequest, _ context: PropertyContext) {
        var found: [(QName, PropValue)] = []
        var missing: [QName] = []
        let names: [QName]
        switch request {
        case .allprop: names = PropertyContext.allprop + [.n("trashbin-filename"), .n("trashbin-original-location"), .n("trashbin-deletion-time")]
        case .props(let list): names = list
        }
        for name in names {
            let value: PropValue?
            switch name {
            case .n("trashbin-filename"): value = .text(entry.name)
            case .n("trashbin-original-location"): value = .text(entry.originalLocation)
            case .n("trashbin-deletion-time"): value = .text(String(entry.deletionTime))
            case .d("displayname"): value = .text(entry.name)
            default: value = context.value(name, of: node)
            }
            if let value { found.append((name, value)) } else { missing.append(name) }
        }
        let href = hrefBase + "/trash/" + FormCodec.encodePath(entry.trashName) + (node.isFolder ? "/" : "")
        writer.response(href: href, found: found, groups: [("404 Not Found", missing)])
    }

    private func delete() throws -> Response {
        try core.withState { state in
            let entries = state.files.trash[user] ?? []
            if path.count > 1 {
                let found = try entry(state, path[1])
                state.files.purge(found.nodeID)
                state.files.trash[user] = entries.filter { $0.trashName != found.trashName }
            } else {
                for item in entries { state.files.purge(item.nodeID) }
                state.files.trash[user] = []
            }
        }
        return Reply.empty(204)
    }

    private func restore(_ req: ServerRequest) throws -> Response {
        guard path.count == 2 else { throw SabreError.forbidden("Only a trashed item can be restored") }
        let target = Destination.davSegments(req.header("Destination") ?? "")
        guard target.count >= 4, target[0] == "trashbin", target[1] == user, target[2] == "restore" else {
            throw SabreError.badRequest("The destination must be \(hrefBase)/restore/<name>")
        }
        try core.withState { state in
            let found = try entry(state, path[1])
            let now = ServerCore.now
            let root = state.files.root(of: user, now: now)
            let location = found.originalLocation.split(separator: "/").map(String.init)
            var parent = state.files.resolve(root, Array(location.dropLast())) ?? root
            if state.files.nodes[parent]?.isFolder != true { parent = root }
            var name = found.name
            if state.files.nodes[parent]?.children[name] != nil {
                let ext = (name as NSString).pathExtension
                let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
                name = ext.isEmpty ? "\(stem) (restored)" : "\(stem) (restored).\(ext)"
            }
            state.files.attach(found.nodeID, to: parent, name: name, now: now)
            state.files.trash[user] = (state.files.trash[user] ?? []).filter { $0.trashName != found.trashName }
        }
        return Reply.empty(201)
    }
}

import Foundation
import Hummingbird
import HTTPProviderKit
import ProviderAPI

/// ownCloud 10's trash bin at `/remote.php/dav/trash-bin/USER/`: entries named by file id (nested
/// folders by the ids below them), `oc:trashbin-original-filename`, `oc:trashbin-original-location`,
/// `oc:trashbin-delete-datetime`; PROPFIND Depth 0, 1 or infinity; `MOVE <id>` with a `Destination`
/// in the user's files restores there (`Overwrite: F` and a taken place is 412); `DELETE <id>`
/// removes one entry, `DELETE` of the root empties the bin.
struct OwnCloudTrashEndpoint {
    let core: ServerCore
    let user: String
    let path: [String]

    var hrefBase: String { "/remote.php/dav/trash-bin/\(FormCodec.encodePath(user))" }

    func respond(_ req: ServerRequest) throws -> Response {
        switch req.method {
        case "PROPFIND": return try list(req)
        case "DELETE": return try delete()
        case "MOVE": return try restore(req)
        default: throw SabreError.methodNotAllowed("Method \(req.method) is not allowed here")
        }
    }

    /// The trash entry and the node addressed by `path` (an entry id, then ids below it).
    private func locate(_ state: ServerState) throws -> (entry: TrashEntry, node: Int64) {
        guard let first = path.first, let entry = (state.files.trash[user] ?? []).first(where: { String($0.nodeID) == first }) else {
            throw SabreError.notFound(path.joined(separator: "/"))
        }
        var current = entry.nodeID
        for id in path.dropFirst() {
            guard let number = Int64(id), state.files.nodes[number]?.parent == current else { throw SabreError.notFound(path.joined(separator: "/")) }
            current = number
        }
        return (entry, current)
    }

    private func list(_ req: ServerRequest) throws -> Response {
        let request = try PropfindRequest.parse(req.body)
        let depthHeader = req.header("Depth")?.trimmingCharacters(in: .whitespaces).lowercased()
        let depth: Int? = depthHeader == "0" ? 0 : (depthHeader == "infinity" ? nil : 1)
        let text = try core.withState { state -> String in
            let root = state.files.root(of: user, now: ServerCore.now)
            let context = PropertyContext(
                flavor: core.flavor, instanceID: core.instanceID, owner: user, ownerDisplayName: core.configuration.displayName(user),
                store: state.files, rootID: root, quota: core.configuration.quotaBytes, shareTypes: [:], baseURL: core.rootURL)
            var writer = MultistatusWriter(flavor: core.flavor)
            let names: [QName]
            switch request {
            case .allprop: names = [.o("trashbin-original-filename"), .o("trashbin-original-location"), .o("trashbin-delete-datetime"), .d("getcontentlength"), .d("resourcetype")]
            case .props(let list): names = list
            }
            if path.isEmpty {
                let found = names.contains(.d("resourcetype")) ? [(QName.d("resourcetype"), PropValue.xml(MultistatusWriter.collection))] : []
                writer.response(href: hrefBase + "/", found: found, groups: [("404 Not Found", names.filter { $0 != .d("resourcetype") })])
                if depth != 0 {
                    for entry in (state.files.trash[user] ?? []).sorted(by: { $0.nodeID > $1.nodeID }) {
                        write(&writer, entry, entry.nodeID, [String(entry.nodeID)], names, context, state.files, depth: depth.map { $0 - 1 })
                    }
                }
            } else {
                let located = try locate(state)
                write(&writer, located.entry, located.node, path, names, context, state.files, depth: depth)
            }
            return writer.finish()
        }
        return Reply.xml(text)
    }

    private func write(
        _ writer: inout MultistatusWriter, _ entry: TrashEntry, _ id: Int64, _ ids: [String], _ names: [QName],
        _ context: PropertyContext, _ store: FileStore, depth: Int?
    ) {
        guard let node = store.nodes[id] else { return }
        let below = store.path(of: id).dropFirst(store.path(of: entry.nodeID).count)
        let location = ([entry.originalLocation] + below).joined(separator: "/")
        var found: [(QName, PropValue)] = []
        var missing: [QName] = []
        for name in names {
            let value: PropValue?
            switch name {
            case .o("trashbin-original-filename"): value = .text(node.name)
            case .o("trashbin-original-location"): value = .text(location)
            case .o("trashbin-delete-datetime"): value = .text(HTTPDate.format(Date(timeIntervalSince1970: TimeInterval(entry.deletionTime))))
            default: value = context.value(name, of: node)
            }
            if let value { found.append((name, value)) } else { missing.append(name) }
        }
        writer.response(href: hrefBase + "/" + ids.joined(separator: "/") + (node.isFolder ? "/" : ""), found: found, groups: [("404 Not Found", missing)])
        guard depth.map({ $0 > 0 }) ?? true else { return }
        for child in store.children(of: id) {
            write(&writer, entry, child, ids + [String(child)], names, context, store, depth: depth.map { $0 - 1 })
        }
    }

    private func delete() throws -> Response {
        try core.withState { state in
            let entries = state.files.trash[user] ?? []
            if path.isEmpty {
                for item in entries { state.files.purge(item.nodeID) }
                state.files.trash[user] = []
                return
            }
            let located = try locate(state)
            guard located.node == located.entry.nodeID else { throw SabreError.forbidden("Only a whole trash entry can be deleted") }
            state.files.purge(located.node)
            state.files.trash[user] = entries.filter { $0.nodeID != located.node }
        }
        return Reply.empty(204)
    }

    private func restore(_ req: ServerRequest) throws -> Response {
        guard let header = req.header("Destination"), let destination = Destination.filesPath(header, user: user), let name = destination.last else {
            throw SabreError.badRequest("The destination must be in this user's files")
        }
        let overwrite = req.header("Overwrite")?.uppercased() != "F"
        let created = try core.withState { state -> Bool in
            let located = try locate(state)
            guard located.node == located.entry.nodeID else { throw SabreError.forbidden("Only a whole trash entry can be restored") }
            let now = ServerCore.now
            let root = state.files.root(of: user, now: now)
            guard let parent = state.files.resolve(root, Array(destination.dropLast())), state.files.nodes[parent]?.isFolder == true else {
                throw SabreError.conflict("The destination node is not found")
            }
            let existing = state.files.nodes[parent]?.children[name]
            if let existing {
                guard overwrite else {
                    throw SabreError.preconditionFailed("The destination node already exists, and the overwrite header is set to false", header: "Overwrite")
                }
                state.files.moveToTrash(user: user, existing, now: now)
            }
            state.files.attach(located.node, to: parent, name: name, now: now)
            state.files.trash[user] = (state.files.trash[user] ?? []).filter { $0.nodeID != located.node }
            return existing == nil
        }
        return Reply.empty(created ? 201 : 204)
    }
}

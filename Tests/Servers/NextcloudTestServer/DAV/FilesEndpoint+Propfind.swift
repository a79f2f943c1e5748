import Foundation
import Hummingbird
import HTTPProviderKit
import ProviderAPI

extension FilesEndpoint {
    /// PROPFIND Depth 0, 1 (no Depth header is 1, as Nextcloud answered in the recordings) or
    /// `infinity`: the target, then each child followed by its own subtree (Sabre's order).
    func propfind(_ req: ServerRequest) throws -> Response {
        let request = try PropfindRequest.parse(req.body)
        let depth = Self.propfindDepth(req)
        let text = try core.withState { state -> String in
            let root = rootID(&state)
            guard let target = locate(&state, path), state.files.nodes[target.id] != nil else { throw SabreError.notFound(relative) }
            var entries: [(parts: [String], located: Located)] = [(path, target)]
            if depth != 0 {
                appendChildren(of: target, at: path, levels: depth.map { $0 - 1 }, state, into: &entries)
            }
            var writer = MultistatusWriter(flavor: core.flavor)
            for entry in entries {
                guard let node = state.files.nodes[entry.located.id] else { continue }
                let context = propertyContext(state, rootID: root, located: entry.located)
                let split = request.split(node, context: context, isRoot: entry.located.id == root)
                writer.response(
                    href: href(entry.parts, folder: node.isFolder), found: split.found, groups: [("404 Not Found", split.missing)])
            }
            return writer.finish()
        }
        return Reply.xml(text, headers: [("Vary", "Brief,Prefer"), ("DAV", "1, 3, extended-mkcol")])
    }

    /// The children of a folder sorted by name (with the received shares at the root), each followed
    /// by its children down to `levels` more levels (`nil`: all).
    private func appendChildren(
        of folder: Located, at parts: [String], levels: Int?, _ state: ServerState, into entries: inout [(parts: [String], located: Located)]
    ) {
        guard state.files.nodes[folder.id]?.isFolder == true else { return }
        var children = state.files.children(of: folder.id).compactMap { id -> (parts: [String], located: Located)? in
            guard let name = state.files.nodes[id]?.name else { return nil }
            return (parts + [name], Located(id: id, share: folder.share))
        }
        if parts.isEmpty {
            for mount in state.mounts(for: user, groups: core.configuration.groups) {
                children.append(([mount.name], Located(id: mount.share.fileID, share: mount.share, isMountRoot: true)))
            }
        }
        for child in children.sorted(by: { ($0.parts.last ?? "") < ($1.parts.last ?? "") }) {
            entries.append(child)
            if levels.map({ $0 > 0 }) ?? true {
                appendChildren(of: child.located, at: child.parts, levels: levels.map { $0 - 1 }, state, into: &entries)
            }
        }
    }

    /// PROPPATCH: `oc:favorite`, `d:lastmodified`, `nc:creation_time`/`nc:upload_time` and dead
    /// properties are set; a protected property (`d:getlastmodified`, …) is 403 and makes every
    /// other one 424 Failed Dependency, nothing applied (as the ownCloud 10 recording).
    func proppatch(_ req: ServerRequest) throws -> Response {
        let root = try DAVElement.parse(req.body)
        guard root.name == .d("propertyupdate") else { throw SabreError.badRequest("The root element must be {DAV:}propertyupdate") }
        var updates: [(name: QName, value: String?, raw: String)] = []
        for action in root.children {
            let remove = action.name == .d("remove")
            guard action.name == .d("set") || remove else { continue }
            for prop in action.children(.d("prop")).flatMap(\.children) {
                updates.append((prop.name, remove ? nil : prop.text, XMLText.escape(prop.text)))
            }
        }
        if path.isEmpty == false { try checkLock(path) }
        let text = try core.withState { state -> String in
            guard let located = locate(&state, path), let node = state.files.nodes[located.id] else { throw SabreError.notFound(relative) }
            let target = located.id
            let forbidden = updates.filter { PropertyContext.protected.contains($0.name) }.map(\.name)
            var writer = MultistatusWriter(flavor: core.flavor)
            let href = href(path, folder: node.isFolder)
            if !forbidden.isEmpty {
                let others = updates.map(\.name).filter { !forbidden.contains($0) }
                writer.response(href: href, found: [], groups: [("403 Forbidden", forbidden), ("424 Failed Dependency", others)])
                return writer.finish()
            }
            for update in updates { apply(update, to: target, &state) }
            writer.response(href: href, found: [], groups: [("200 OK", updates.map(\.name))])
            return writer.finish()
        }
        return Reply.xml(text)
    }

    private func apply(_ update: (name: QName, value: String?, raw: String), to id: Int64, _ state: inout ServerState) {
        let value = update.value?.trimmingCharacters(in: .whitespacesAndNewlines)
        switch update.name {
        case .o("favorite"): state.files.nodes[id]?.favorite = value.map { $0 == "1" || $0 == "true" } ?? false
        case .d("lastmodified"):
            // Nextcloud's touch rescans the node: a file gets a new etag, and the etags of the
            // folders above it change, as for any write (folder etags stay recursive).
            if let time = value.flatMap(Self.parseTime), let node = state.files.nodes[id] {
                state.files.nodes[id]?.mtime = time
                if !node.isFolder { state.files.nodes[id]?.etag = Identifiers.fileETag() }
                state.files.propagate(from: node.isFolder ? id : node.parent ?? id, now: ServerCore.now, touchMtime: false)
            }
        case .n("creation_time"):
            if let time = value.flatMap({ Int64($0) }) { state.files.nodes[id]?.creationTime = time }
        case .n("upload_time"):
            if let time = value.flatMap({ Int64($0) }) { state.files.nodes[id]?.uploadTime = time }
        default:
            state.files.nodes[id]?.deadProperties[update.name.clark] = update.value == nil ? nil : update.raw
        }
    }

    /// A Unix time, or an HTTP date.
    static func parseTime(_ text: String) -> Int64? {
        if let value = Int64(text) { return value }
        if let value = Double(text) { return Int64(value) }
        return HTTPDate.parse(text).map { Int64($0.timeIntervalSince1970) }
    }
}

import Foundation
import ProviderAPI
import ProviderKit

/// Every user's files, trash and chunked uploads, kept in memory. File ids are unique across users.
struct FileStore: Sendable {
    var nodes: [Int64: FileNode] = [:]
    var roots: [String: Int64] = [:]
    var trash: [String: [TrashEntry]] = [:]
    var uploads: [String: [String: UploadSession]] = [:]
    /// File id → its older versions, newest first (files_versions).
    var versions: [Int64: [FileVersion]] = [:]
    /// ownCloud v1 chunks: user → chunk prefix (`<folder path>/<name>-chunking-<id>-<n>-`) → index → bytes.
    var legacyChunks: [String: [String: [Int: Data]]] = [:]
    var nextID: Int64 = 10
    var serial: Int64 = 0

    // MARK: - Reading

    /// The root folder id of `user`, creating the (empty) root on first use.
    mutating func root(of user: String, now: Int64) -> Int64 {
        if let id = roots[user] { return id }
        let id = newFolder(name: "", parent: nil, now: now)
        roots[user] = id
        return id
    }

    /// The node at `path` (components relative to the user's root).
    func resolve(_ rootID: Int64, _ path: [String]) -> Int64? {
        var current = rootID
        for name in path {
            guard let next = nodes[current]?.children[name] else { return nil }
            current = next
        }
        return current
    }

    /// Components from the user's root down to `id` (empty for the root).
    func path(of id: Int64) -> [String] {
        var parts: [String] = []
        var current = nodes[id]
        while let node = current, let parent = node.parent {
            parts.append(node.name)
            current = nodes[parent]
        }
        return parts.reversed()
    }

    /// The byte size: the content for a file, the sum of every file below for a folder.
    func size(of id: Int64) -> Int64 {
        guard let node = nodes[id] else { return 0 }
        if !node.isFolder { return Int64(node.data.count) }
        return node.children.values.reduce(0) { $0 + size(of: $1) }
    }

    /// The children of a folder, sorted by name.
    func children(of id: Int64) -> [Int64] {
        guard let node = nodes[id] else { return [] }
        return node.children.keys.sorted().compactMap { node.children[$0] }
    }

    /// `id` and the nodes below it, depth first, down to `depth` levels (`nil`: all).
    func subtree(_ id: Int64, depth: Int?) -> [Int64] {
        var out = [id]
        guard depth.map({ $0 > 0 }) ?? true else { return out }
        for child in children(of: id) {
            out.append(contentsOf: subtree(child, depth: depth.map { $0 - 1 }))
        }
        return out
    }

    /// `true` when `id` is `ancestor` or lies below it.
    func isInside(_ id: Int64, _ ancestor: Int64) -> Bool {
        var current: Int64? = id
        while let value = current {
            if value == ancestor { return true }
            current = nodes[value]?.parent
        }
        return false
    }

    // MARK: - Writing

    mutating func newFolder(name: String, parent: Int64?, now: Int64) -> Int64 {
        let id = takeID()
        serial += 1
        nodes[id] = FileNode(
            id: id, name: name, isFolder: true, parent: parent, mtime: now,
            etag: Identifiers.folderETag(serial: serial), creationTime: 0, uploadTime: now,
            mimeType: "httpd/unix-directory")
        if let parent { attach(id, to: parent, name: name, now: now) }
        return id
    }

    /// Writes a file under `parent`; replaces the content of an existing file (same id).
    mutating func writeFile(
        name: String, parent: Int64, data: Data, mtime: Int64, checksum: String?, now: Int64
    ) -> (id: Int64, created: Bool) {
        if let existing = nodes[parent]?.children[name], var node = nodes[existing], !node.isFolder {
            keepVersion(of: node)
            node.data = data
            node.mtime = mtime
            node.checksum = checksum
            node.etag = Identifiers.fileETag()
            nodes[existing] = node
            propagate(from: parent, now: now, touchMtime: false)
            return (existing, false)
        }
        let id = takeID()
        nodes[id] = FileNode(
            id: id, name: name, isFolder: false, parent: parent, data: data, mtime: mtime,
            etag: Identifiers.fileETag(), checksum: checksum, creationTime: 0, uploadTime: now,
            mimeType: MIMETypes.guess(name))
        attach(id, to: parent, name: name, now: now)
        return (id, true)
    }

    /// Keeps a file's current content as a version before it is replaced, as files_versions does:
    /// named by the content's modification time (a version of the same time is replaced); an empty
    /// file makes no version.
    mutating func keepVersion(of node: FileNode) {
        guard !node.isFolder, !node.data.isEmpty else { return }
        var list = versions[node.id] ?? []
        list.removeAll { $0.revision == node.mtime }
        list.append(FileVersion(revision: node.mtime, data: node.data, mimeType: node.mimeType))
        versions[node.id] = list.sorted { $0.revision > $1.revision }
    }

    /// Links a detached node under `parent` as `name`.
    mutating func attach(_ id: Int64, to parent: Int64, name: String, now: Int64) {
        nodes[id]?.parent = parent
        nodes[id]?.name = name
        if nodes[id]?.isFolder == false { nodes[id]?.mimeType = MIMETypes.guess(name) }
        nodes[parent]?.children[name] = id
        propagate(from: parent, now: now, touchMtime: true)
    }

    /// Unlinks a node from its parent (it stays in `nodes`).
    mutating func detach(_ id: Int64, now: Int64) {
        guard let node = nodes[id], let parent = node.parent else { return }
        nodes[parent]?.children[node.name] = nil
        nodes[id]?.parent = nil
        propagate(from: parent, now: now, touchMtime: true)
    }

    /// Forgets a node and everything below it.
    mutating func purge(_ id: Int64) {
        for child in nodes[id]?.children.values.map({ $0 }) ?? [] { purge(child) }
        nodes[id] = nil
    }

    /// A detached deep copy of a node with new ids.
    mutating func duplicate(_ id: Int64, now: Int64) -> Int64? {
        guard var node = nodes[id] else { return nil }
        let newID = takeID()
        let children = node.children
        node.id = newID
        node.parent = nil
        node.children = [:]
        node.favorite = false
        node.uploadTime = now
        serial += 1
        node.etag = node.isFolder ? Identifiers.folderETag(serial: serial) : Identifiers.fileETag()
        nodes[newID] = node
        for (name, child) in children {
            if let copy = duplicate(child, now: now) {
                nodes[copy]?.parent = newID
                nodes[newID]?.children[name] = copy
            }
        }
        return newID
    }

    /// New etags from `id` up to the root, as Nextcloud propagates them; the folder's own mtime
    /// changes when a child was added or removed.
    mutating func propagate(from id: Int64, now: Int64, touchMtime: Bool) {
        var current: Int64? = id
        var first = true
        while let value = current, nodes[value] != nil {
            serial += 1
            nodes[value]?.etag = Identifiers.folderETag(serial: serial)
            if first, touchMtime { nodes[value]?.mtime = now }
            first = false
            current = nodes[value]?.parent
        }
    }

    mutating func takeID() -> Int64 {
        nextID += 1
        return nextID
    }
}

import Foundation

extension NextcloudTestServer {
    /// Places a file in `user`'s tree (missing parent folders are created), as an administrator
    /// copying it into the data folder and scanning would. Replaces an existing file's content.
    /// Returns its file id.
    @discardableResult
    public func seedFile(user: String, path: String, contents: Data, modified: Date = Date(), checksum: String? = nil) -> Int64 {
        core.withState { state in
            let now = ServerCore.now
            let parts = Self.components(path)
            let parent = state.files.ensureFolders(user: user, Array(parts.dropLast()), now: now)
            let stored = checksum ?? (core.isNextcloud ? nil : Checksums.ownCloudList(contents))
            let result = state.files.writeFile(
                name: parts.last ?? "file", parent: parent, data: contents,
                mtime: Int64(modified.timeIntervalSince1970), checksum: stored, now: now)
            return result.id
        }
    }

    /// Creates a folder and its parents in `user`'s tree; returns its file id.
    @discardableResult
    public func seedFolder(user: String, path: String, modified: Date? = nil) -> Int64 {
        core.withState { state in
            let id = state.files.ensureFolders(user: user, Self.components(path), now: ServerCore.now)
            if let modified { state.files.nodes[id]?.mtime = Int64(modified.timeIntervalSince1970) }
            return id
        }
    }

    /// The file id of a path of `user`'s tree, `nil` when nothing is there.
    public func fileID(user: String, path: String) -> Int64? {
        core.withState { state in
            guard let root = state.files.roots[user] else { return nil }
            return state.files.resolve(root, Self.components(path))
        }
    }

    /// The content of a file of `user`'s tree, `nil` when there is no file there.
    public func contents(user: String, path: String) -> Data? {
        core.withState { state in
            guard let root = state.files.roots[user], let id = state.files.resolve(root, Self.components(path)),
                let node = state.files.nodes[id], !node.isFolder
            else { return nil }
            return node.data
        }
    }

    /// The names in `user`'s trash, as listed (`name.d<time>`).
    public func trashNames(user: String) -> [String] {
        core.withState { state in (state.files.trash[user] ?? []).map(\.trashName) }
    }

    /// The chunk names of a pending chunked upload, sorted; `nil` when there is no such upload.
    public func pendingChunks(user: String, upload: String) -> [String]? {
        core.withState { state -> [String]? in
            guard let session = state.files.uploads[user]?[upload] else { return nil }
            return session.chunks.keys.sorted()
        }
    }

    static func components(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}

extension FileStore {
    /// The folder at `path`, creating it and its missing parents.
    mutating func ensureFolders(user: String, _ path: [String], now: Int64) -> Int64 {
        var current = root(of: user, now: now)
        for name in path {
            if let next = nodes[current]?.children[name] {
                current = next
            } else {
                current = newFolder(name: name, parent: current, now: now)
            }
        }
        return current
    }
}

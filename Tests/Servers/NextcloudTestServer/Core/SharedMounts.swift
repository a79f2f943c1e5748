import Foundation

/// A node as one user reaches it: in the user's own files, or through a share received from
/// another user (accepted at once and mounted at the user's root, as ownCloud 10 and Nextcloud do
/// by default).
struct Located {
    var id: Int64
    /// The share the node is reached through, `nil` in the user's own files.
    var share: StoredShare?
    /// `true` for the mount point itself.
    var isMountRoot = false
}

extension ServerState {
    /// The shares `user` received (user shares, and group shares of the user's groups), with the
    /// name each is mounted under at the user's root: the item's name, made unique with ` (2)`, …
    func mounts(for user: String, groups: [String: [String]]) -> [(name: String, share: StoredShare)] {
        let memberOf = Set(groups.filter { $0.value.contains(user) }.keys)
        let received = shares.sorted { share in
            share.owner != user && ((share.type == 0 && share.shareWith == user) || (share.type == 1 && memberOf.contains(share.shareWith ?? "")))
        }
        var taken = Set(files.roots[user].flatMap { files.nodes[$0]?.children.keys.map { $0 } } ?? [])
        var out: [(String, StoredShare)] = []
        var seenFiles = Set<Int64>()
        for share in received.sorted(by: { $0.id < $1.id }) {
            guard let node = files.nodes[share.fileID], fileOwner(share.fileID) != nil, !seenFiles.contains(share.fileID) else { continue }
            seenFiles.insert(share.fileID)
            var name = node.name
            var counter = 2
            while taken.contains(name) {
                let ext = (node.name as NSString).pathExtension
                let stem = ext.isEmpty ? node.name : String(node.name.dropLast(ext.count + 1))
                name = ext.isEmpty ? "\(stem) (\(counter))" : "\(stem) (\(counter)).\(ext)"
                counter += 1
            }
            taken.insert(name)
            out.append((name, share))
        }
        return out
    }

    /// The user whose tree holds `id`, `nil` for a node in no tree (trashed).
    func fileOwner(_ id: Int64) -> String? {
        var current = id
        while let parent = files.nodes[current]?.parent { current = parent }
        return files.roots.first { $0.value == current }?.key
    }

    /// The node at `path` for `user`: own files first, then received shares at the root.
    func locate(user: String, _ path: [String], groups: [String: [String]]) -> Located? {
        guard let root = files.roots[user] else { return nil }
        guard let first = path.first else { return Located(id: root) }
        if files.nodes[root]?.children[first] != nil {
            return files.resolve(root, path).map { Located(id: $0) }
        }
        guard let mount = mounts(for: user, groups: groups).first(where: { $0.name == first }) else { return nil }
        guard let id = files.resolve(mount.share.fileID, Array(path.dropFirst())) else { return nil }
        return Located(id: id, share: mount.share, isMountRoot: path.count == 1)
    }
}

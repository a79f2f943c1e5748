import Foundation

/// The in-memory tree of one workspace: nodes keyed by normalised path,
/// the root `/` and the recycle bin `/recycle_bin` always present.
struct Workspace: Sendable {
    let id: String
    private(set) var nodes: [String: StoredNode] = [:]
    private var nextInode: Int

    init(id: String, created: Int64) {
        self.id = id
        nextInode = 16_343_000 + (Int(id) ?? 7) * 100_000
        nodes["/"] = StoredNode(isFolder: true, data: Data(), mtime: created, perms: "0755", inode: takeInode())
        nodes[PathTools.recycle] = StoredNode(isFolder: true, data: Data(), mtime: created, perms: "0755", inode: takeInode())
    }

    private mutating func takeInode() -> Int {
        nextInode += 1
        return nextInode
    }

    subscript(path: String) -> StoredNode? { nodes[path] }

    /// Direct children of `dir`, as (path, node).
    func children(of dir: String) -> [(path: String, node: StoredNode)] {
        nodes.compactMap { path, node in
            path != "/" && PathTools.parent(path) == dir ? (path, node) : nil
        }
    }

    /// The existing child of `dir` whose name equals `name` ignoring case.
    func childIgnoringCase(_ dir: String, _ name: String) -> String? {
        let lowered = name.lowercased()
        return children(of: dir).first { PathTools.name($0.path).lowercased() == lowered }?.path
    }

    /// Every file (not folder), optionally skipping the recycle bin.
    func fileCount(includingRecycleBin: Bool) -> Int {
        nodes.filter { path, node in
            !node.isFolder && (includingRecycleBin || !PathTools.isWithin(path, PathTools.recycle))
        }.count
    }

    /// Total bytes of the files at or below `path`.
    func totalBytes(_ path: String) -> Int {
        nodes.reduce(0) { sum, entry in PathTools.isWithin(entry.key, path) ? sum + entry.value.size : sum }
    }

    // MARK: - Mutations

    /// Creates a folder (mode `0700`) and touches its parent.
    mutating func makeFolder(_ path: String, now: Int64, perms: String = "0700") {
        nodes[path] = StoredNode(isFolder: true, data: Data(), mtime: now, perms: perms, inode: takeInode())
        touch(PathTools.parent(path), now)
    }

    /// Writes a file (mode `0600` when new); returns `true` when it was created.
    @discardableResult
    mutating func write(_ path: String, data: Data, now: Int64, perms: String = "0600") -> Bool {
        if var existing = nodes[path], !existing.isFolder {
            existing.data = data
            existing.mtime = now
            nodes[path] = existing
            return false
        }
        nodes[path] = StoredNode(isFolder: false, data: data, mtime: now, perms: perms, inode: takeInode())
        touch(PathTools.parent(path), now)
        return true
    }

    /// Appends to a file, creating it when missing. The node is taken out of the tree while its
    /// bytes grow, so they are appended in place rather than copied.
    mutating func append(_ path: String, data: Data, now: Int64) {
        let created = nodes[path] == nil
        var node = nodes.removeValue(forKey: path) ?? StoredNode(isFolder: false, data: Data(), mtime: now, perms: "0600", inode: takeInode())
        node.data.append(data)
        node.mtime = now
        if created { touch(PathTools.parent(path), now) }
        nodes[path] = node
    }

    /// Records the `original_path` of an update event on `path`.
    mutating func markUpdated(_ path: String, from original: String) {
        nodes[path]?.lastOriginalPath = original
    }

    /// Moves `from` (and everything below) to `to`; mtimes of the nodes kept.
    mutating func move(_ from: String, to: String, now: Int64) {
        let moving = nodes.filter { PathTools.isWithin($0.key, from) }
        for (path, _) in moving { nodes[path] = nil }
        for (path, node) in moving {
            nodes[to + path.dropFirst(from.count)] = node
        }
        touch(PathTools.parent(from), now)
        touch(PathTools.parent(to), now)
    }

    /// Copies `from` (and everything below) to `to` with fresh inodes and mtimes.
    mutating func copy(_ from: String, to: String, now: Int64) {
        let copying = nodes.filter { PathTools.isWithin($0.key, from) }
        for (path, node) in copying {
            var copy = node
            copy.inode = takeInode()
            copy.mtime = now
            copy.lastOriginalPath = nil
            copy.recycledFrom = nil
            nodes[to + path.dropFirst(from.count)] = copy
        }
        touch(PathTools.parent(to), now)
    }

    /// Deletes `path` and everything below.
    mutating func remove(_ path: String, now: Int64) {
        for key in nodes.keys where PathTools.isWithin(key, path) { nodes[key] = nil }
        touch(PathTools.parent(path), now)
    }

    mutating func setRecycledFrom(_ path: String, _ origin: String?) {
        nodes[path]?.recycledFrom = origin
    }

    private mutating func touch(_ dir: String, _ now: Int64) {
        nodes[dir]?.mtime = now
    }

    /// A free name in `dir` for `name`: itself, else `name-1.ext`, `name-2.ext`…
    func freeName(in dir: String, for name: String) -> String {
        var candidate = name
        var index = 1
        while nodes[PathTools.join(dir, candidate)] != nil {
            candidate = PathTools.numbered(name, index)
            index += 1
        }
        return candidate
    }

    /// Test seeding: a file (`0644`) or, with `contents == nil`, a folder
    /// (`0755`); missing parents are created with `0755`.
    mutating func seed(path raw: String, contents: Data?, mtime: Int64) {
        let path = PathTools.normalize(raw)
        guard path != "/" else { return }
        var ancestors: [String] = []
        var cursor = PathTools.parent(path)
        while cursor != "/" {
            ancestors.insert(cursor, at: 0)
            cursor = PathTools.parent(cursor)
        }
        for dir in ancestors where nodes[dir] == nil {
            nodes[dir] = StoredNode(isFolder: true, data: Data(), mtime: mtime, perms: "0755", inode: takeInode())
        }
        if let contents {
            nodes[path] = StoredNode(isFolder: false, data: contents, mtime: mtime, perms: "0644", inode: takeInode())
        } else if nodes[path] == nil {
            nodes[path] = StoredNode(isFolder: true, data: Data(), mtime: mtime, perms: "0755", inode: takeInode())
        }
    }
}

import Foundation

/// The in-memory tree of one workspace: nodes keyed by normalised path,
/// the root `/` and the recycle bin `/recycle_bin` always present.
///
/// Paths are compared byte for byte, as the server's file system does: `café` precomposed and
/// `cafe` + U+0301 are two names (Swift's `String` equality would take them for one).
struct Workspace: Sendable {
    let id: String
    private var storage: [ExactPath: StoredNode] = [:]
    private var nextInode: Int

    /// Every node by path.
    var nodes: [(key: String, value: StoredNode)] {
        storage.map { ($0.key.text, $0.value) }
    }

    init(id: String, created: Int64) {
        self.id = id
        nextInode = 16_343_000 + (Int(id) ?? 7) * 100_000
        storage[ExactPath("/")] = StoredNode(isFolder: true, data: Data(), mtime: created, perms: "0755", inode: takeInode())
        storage[ExactPath(PathTools.recycle)] = StoredNode(isFolder: true, data: Data(), mtime: created, perms: "0755", inode: takeInode())
    }

    private mutating func takeInode() -> Int {
        nextInode += 1
        return nextInode
    }

    subscript(path: String) -> StoredNode? { storage[ExactPath(path)] }

    /// Sets or removes the node at `path`.
    private subscript(set path: String) -> StoredNode? {
        get { storage[ExactPath(path)] }
        set { storage[ExactPath(path)] = newValue }
    }

    /// Direct children of `dir`, as (path, node).
    func children(of dir: String) -> [(path: String, node: StoredNode)] {
        storage.compactMap { key, node in
            key.text != "/" && PathTools.same(PathTools.parent(key.text), dir) ? (key.text, node) : nil
        }
    }

    /// The existing child of `dir` whose name equals `name` ignoring case.
    func childIgnoringCase(_ dir: String, _ name: String) -> String? {
        let lowered = name.lowercased()
        return children(of: dir).first { PathTools.same(PathTools.name($0.path).lowercased(), lowered) }?.path
    }

    /// Every file (not folder), optionally skipping the recycle bin.
    func fileCount(includingRecycleBin: Bool) -> Int {
        storage.filter { key, node in
            !node.isFolder && (includingRecycleBin || !PathTools.isWithin(key.text, PathTools.recycle))
        }.count
    }

    /// Total bytes of the files at or below `path`.
    func totalBytes(_ path: String) -> Int {
        storage.reduce(0) { sum, entry in PathTools.isWithin(entry.key.text, path) ? sum + entry.value.size : sum }
    }

    // MARK: - Mutations

    /// Creates a folder (mode `0700`) and touches its parent.
    mutating func makeFolder(_ path: String, now: Int64, perms: String = "0700") {
        self[set: path] = StoredNode(isFolder: true, data: Data(), mtime: now, perms: perms, inode: takeInode())
        touch(PathTools.parent(path), now)
    }

    /// Writes a file (mode `0600` when new); returns `true` when it was created.
    @discardableResult
    mutating func write(_ path: String, data: Data, now: Int64, perms: String = "0600") -> Bool {
        if var existing = self[set: path], !existing.isFolder {
            existing.data = data
            existing.mtime = now
            self[set: path] = existing
            return false
        }
        self[set: path] = StoredNode(isFolder: false, data: data, mtime: now, perms: perms, inode: takeInode())
        touch(PathTools.parent(path), now)
        return true
    }

    /// Appends to a file, creating it when missing. The node is taken out of the tree while its
    /// bytes grow, so they are appended in place rather than copied.
    mutating func append(_ path: String, data: Data, now: Int64) {
        let created = self[set: path] == nil
        var node = storage.removeValue(forKey: ExactPath(path)) ?? StoredNode(isFolder: false, data: Data(), mtime: now, perms: "0600", inode: takeInode())
        node.data.append(data)
        node.mtime = now
        if created { touch(PathTools.parent(path), now) }
        self[set: path] = node
    }

    /// Records the `original_path` of an update event on `path`.
    mutating func markUpdated(_ path: String, from original: String) {
        self[set: path]?.lastOriginalPath = original
    }

    /// Moves `from` (and everything below) to `to`; mtimes of the nodes kept.
    mutating func move(_ from: String, to: String, now: Int64) {
        let moving = storage.filter { PathTools.isWithin($0.key.text, from) }
        for (key, _) in moving { storage[key] = nil }
        for (key, node) in moving {
            self[set: to + PathTools.suffix(key.text, after: from)] = node
        }
        touch(PathTools.parent(from), now)
        touch(PathTools.parent(to), now)
    }

    /// Copies `from` (and everything below) to `to` with fresh inodes and mtimes.
    mutating func copy(_ from: String, to: String, now: Int64) {
        let copying = storage.filter { PathTools.isWithin($0.key.text, from) }
        for (key, node) in copying {
            var copy = node
            copy.inode = takeInode()
            copy.mtime = now
            copy.lastOriginalPath = nil
            copy.recycledFrom = nil
            self[set: to + PathTools.suffix(key.text, after: from)] = copy
        }
        touch(PathTools.parent(to), now)
    }

    /// Deletes `path` and everything below.
    mutating func remove(_ path: String, now: Int64) {
        for key in storage.keys where PathTools.isWithin(key.text, path) { storage[key] = nil }
        touch(PathTools.parent(path), now)
    }

    mutating func setRecycledFrom(_ path: String, _ origin: String?) {
        self[set: path]?.recycledFrom = origin
    }

    private mutating func touch(_ dir: String, _ now: Int64) {
        self[set: dir]?.mtime = now
    }

    /// A free name in `dir` for `name`: itself, else `name-1.ext`, `name-2.ext`…
    func freeName(in dir: String, for name: String) -> String {
        var candidate = name
        var index = 1
        while self[PathTools.join(dir, candidate)] != nil {
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
        for dir in ancestors where self[set: dir] == nil {
            self[set: dir] = StoredNode(isFolder: true, data: Data(), mtime: mtime, perms: "0755", inode: takeInode())
        }
        if let contents {
            self[set: path] = StoredNode(isFolder: false, data: contents, mtime: mtime, perms: "0644", inode: takeInode())
        } else if self[set: path] == nil {
            self[set: path] = StoredNode(isFolder: true, data: Data(), mtime: mtime, perms: "0755", inode: takeInode())
        }
    }
}

/// A path compared and hashed by its UTF-8 bytes, not by canonical equivalence.
struct ExactPath: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: ExactPath, rhs: ExactPath) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

    func hash(into hasher: inout Hasher) {
        for byte in text.utf8 { hasher.combine(byte) }
    }
}

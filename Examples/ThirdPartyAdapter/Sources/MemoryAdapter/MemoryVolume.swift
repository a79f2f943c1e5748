import Foundation
import ProviderAPI
import ProviderKit

/// One tree of folders and files kept in memory: the "server" of the memory adapter.
///
/// Every change happens inside the actor, so a check and the write it guards (a taken name, an
/// `ifMatch`) are one step: that is what makes `Capabilities.Features.exclusiveCreate` and
/// `Capabilities.Features.preconditions` true here. Names are stored in NFC, as the
/// provider's `NameRules` declare.
actor MemoryVolume {
    /// One file or folder.
    struct Node: Sendable {
        var id: String
        var kind: ItemKind
        var content = ByteBuffer()
        var sha256: String?
        var modified: Date
        var created: Date
        var version = 1
        var mimeType: String?

        /// Changes whenever the content does.
        var etag: String { "\"\(id)-\(version)\"" }
    }

    /// What the volume keeps of names: the provider declares the same rules.
    let rules: NameRules
    private var nodes: [ItemPath: Node]
    private var lastID = 0

    /// An empty volume: its root folder alone.
    init(rules: NameRules) {
        self.rules = rules
        let now = Date()
        nodes = [.root: Node(id: "root", kind: .folder, modified: now, created: now)]
    }

    // MARK: Reading

    /// The node at `path`.
    ///
    /// - Throws: `ProviderError.Code.notFound`.
    func node(at path: ItemPath) throws -> (path: ItemPath, node: Node) {
        let key = try stored(path)
        guard let node = nodes[key] else { throw ProviderError(.notFound, "\(path) does not exist") }
        return (key, node)
    }

    /// The children of `folder`, by name; the provider pages them with `ListingPager`.
    ///
    /// - Throws: `ProviderError.Code.notFound` for a missing folder, `ProviderError.Code.conflict` for a file.
    func children(of folder: ItemPath) throws -> [String: (path: ItemPath, node: Node)] {
        let key = try parentFolder(folder)
        var children: [String: (path: ItemPath, node: Node)] = [:]
        for (path, node) in nodes where path.segments.count == key.segments.count + 1 && path.parent == key {
            children[path.name] = (path, node)
        }
        return children
    }

    // MARK: Writing

    /// The file or folder `name` in `folder`, if there is one: what an upload checks first.
    func existing(_ name: String, in folder: ItemPath) throws -> (path: ItemPath, node: Node)? {
        let target = try parentFolder(folder).appending(try accepted(name))
        return nodes[target].map { (target, $0) }
    }

    /// Writes a whole file at once: nothing of it is visible before this call, all of it after.
    /// The placement and `ifMatch` are checked again here, in the same step as the write, so two
    /// racing uploads cannot both take a name (`Capabilities.Features.exclusiveCreate`) or
    /// both replace the same version (`Capabilities.Features.preconditions`).
    func commit(
        _ content: ByteBuffer, folder: ItemPath, name: String, placement: UploadPlacement, options: UploadOptions
    ) throws -> (path: ItemPath, node: Node) {
        let target = try parentFolder(folder).appending(try accepted(name))
        let existing = nodes[target]
        if placement == .exclusive, existing != nil { throw ProviderError(.alreadyExists, "\(target) already exists") }
        if existing?.kind == .folder { throw ProviderError(.alreadyExists, "\(target) is a folder") }
        if let ifMatch = options.ifMatch, ifMatch != existing?.etag {
            throw ProviderError(.preconditionFailed, "\(target) changed: \(existing?.etag ?? "gone"), not \(ifMatch)")
        }
        let now = Date()
        var node = existing ?? Node(id: newID(), kind: .file, modified: now, created: now)
        if existing != nil { node.version += 1 }
        var digester = Digester(.sha256)
        digester?.update(content)
        node.content = content
        node.sha256 = digester?.finalize()
        node.modified = options.modified ?? now
        node.mimeType = options.mimeType ?? MIMETypes.guess(target.name)
        nodes[target] = node
        return (target, node)
    }

    /// Creates the folder `name` in `parent`.
    func createFolder(named name: String, in parent: ItemPath) throws -> (path: ItemPath, node: Node) {
        let target = try parentFolder(parent).appending(try accepted(name))
        guard nodes[target] == nil else { throw ProviderError(.alreadyExists, "\(target) already exists") }
        let now = Date()
        let node = Node(id: newID(), kind: .folder, modified: now, created: now)
        nodes[target] = node
        return (target, node)
    }

    /// Deletes a file, or a folder and everything below it.
    func delete(_ path: ItemPath) throws {
        let (key, _) = try node(at: path)
        guard !key.isRoot else { throw ProviderError(.forbidden, "the root folder cannot be deleted") }
        for candidate in nodes.keys where candidate == key || candidate.isDescendant(of: key) { nodes[candidate] = nil }
    }

    /// Moves (`keepSource` false) or copies an item, with everything below it. A move keeps
    /// the items' ids (`Capabilities.Features.stableIDs`); a copy gives new ones.
    func transfer(_ source: ItemPath, to destination: ItemPath, overwrite: Bool, keepSource: Bool) throws -> (path: ItemPath, node: Node) {
        let (from, _) = try node(at: source)
        guard !from.isRoot, !destination.isRoot else { throw ProviderError(.invalidArgument, "the root folder cannot be moved or replaced") }
        let target = try parentFolder(destination.parent).appending(try accepted(destination.name))
        guard target != from, !target.isDescendant(of: from) else {
            throw ProviderError(.invalidArgument, "\(source) cannot be moved or copied into itself")
        }
        if nodes[target] != nil {
            guard overwrite else { throw ProviderError(.alreadyExists, "\(target) already exists") }
            for candidate in nodes.keys where candidate == target || candidate.isDescendant(of: target) { nodes[candidate] = nil }
        }
        let moving = nodes.filter { $0.key == from || $0.key.isDescendant(of: from) }
        if !keepSource { for key in moving.keys { nodes[key] = nil } }
        for (key, node) in moving {
            var placed = node
            if keepSource { placed.id = newID() }
            nodes[target.appending(key.relative(to: from) ?? .root)] = placed
        }
        return try self.node(at: target)
    }

    // MARK: Names

    /// `path` with its names as the volume stores them.
    private func stored(_ path: ItemPath) throws -> ItemPath {
        try ItemPath(segments: path.segments.map(rules.stored))
    }

    /// `name` as stored, if it is one the volume takes.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument`.
    private func accepted(_ name: String) throws -> String {
        try ItemPath.validate(name: name)
        guard rules.accepts(name) else { throw ProviderError(.invalidArgument, "the name \(name.debugDescription) is not accepted") }
        return rules.stored(name)
    }

    /// The stored path of the existing folder `path`.
    ///
    /// - Throws: `ProviderError.Code.notFound` when it is missing, `ProviderError.Code.conflict` when it is a file.
    private func parentFolder(_ path: ItemPath) throws -> ItemPath {
        let key = try stored(path)
        guard let node = nodes[key] else { throw ProviderError(.notFound, "the folder \(path) does not exist") }
        guard node.kind == .folder else { throw ProviderError(.conflict, "\(path) is not a folder") }
        return key
    }

    private func newID() -> String {
        lastID += 1
        return "m\(lastID)"
    }
}

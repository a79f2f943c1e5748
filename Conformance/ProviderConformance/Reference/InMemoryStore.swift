import Foundation
import NIOCore
import ProviderAPI
import ProviderKit

/// The files and folders of an ``InMemoryServer``, with its change log and shares.
///
/// Every method runs under the server's lock and throws ``ProviderError`` only.
struct InMemoryStore {
    /// A path as the store keys it: the UTF-8 of each normalised segment, so NFC and NFD names stay apart.
    struct Key: Hashable {
        let bytes: [[UInt8]]
        init(_ segments: [String]) { bytes = segments.map { Array($0.utf8) } }
        var segments: [String] { bytes.map { String(decoding: $0, as: UTF8.self) } }
        var parent: Key { Key(bytes: Array(bytes.dropLast())) }
        private init(bytes: [[UInt8]]) { self.bytes = bytes }
        func isBelow(_ other: Key) -> Bool { bytes.count > other.bytes.count && Array(bytes.prefix(other.bytes.count)) == other.bytes }
        func replacingPrefix(_ prefix: Key, with other: Key) -> Key { Key(bytes: other.bytes + bytes.dropFirst(prefix.bytes.count)) }
    }

    /// One file or folder.
    struct Node {
        var id: String
        var kind: ItemKind
        var bytes: [UInt8] = []
        var digests: [DigestAlgorithm: String] = [:]
        var modified: Date
        var created: Date
        var version: Int = 1
        var mimeType: String?
        var etag: String { "\"\(id)-\(version)\"" }
    }

    let rules: NameRules
    private(set) var nodes: [Key: Node]
    private var nextID = 1
    var log: [(sequence: Int, change: Change)] = []
    var sequence = 0
    var shares: [String: Share] = [:]
    /// The passwords of password-protected public links, by share id.
    var linkPasswords: [String: String] = [:]

    /// The time stamped on what the store writes.
    let clock: @Sendable () -> Date

    init(rules: NameRules, clock: @escaping @Sendable () -> Date) {
        self.rules = rules
        self.clock = clock
        let now = clock()
        nodes = [Key([]): Node(id: "root", kind: .folder, modified: now, created: now)]
    }

    // MARK: Paths and items

    func key(_ path: ItemPath) -> Key { Key(path.segments.map(rules.stored)) }

    func node(_ key: Key) throws -> Node {
        guard let node = nodes[key] else { throw ProviderError(.notFound, "\(Self.path(key)) does not exist") }
        return node
    }

    static func path(_ key: Key) -> ItemPath { (try? ItemPath(segments: key.segments)) ?? .root }

    func item(_ key: Key) throws -> Item {
        let node = try node(key)
        return Item(
            id: node.id, path: Self.path(key), kind: node.kind, size: node.kind == .file ? Int64(node.bytes.count) : nil,
            modified: node.modified, created: node.created, etag: node.etag,
            mimeType: node.kind == .file ? (node.mimeType ?? Self.mimeType(for: key.segments.last ?? "")) : nil,
            digests: node.digests, permissions: .all)
    }

    func children(_ key: Key) throws -> [Key] {
        guard try node(key).kind == .folder else { throw ProviderError(.conflict, "\(Self.path(key)) is not a folder") }
        return nodes.keys.filter { $0.bytes.count == key.bytes.count + 1 && $0.parent == key }
            .sorted { $0.bytes.last?.lexicographicallyPrecedes($1.bytes.last ?? []) ?? true }
    }

    func list(_ key: Key, limit: Int?, cursor: String?) throws -> ItemPage {
        let all = try children(key)
        let start = try cursor.map { text -> Int in
            guard let offset = Int(text), offset >= 0, offset <= all.count else {
                throw ProviderError(.invalidArgument, "invalid cursor \(text)")
            }
            return offset
        } ?? 0
        let end = limit.map { min(all.count, start + max(1, $0)) } ?? all.count
        let items = try all[start..<end].map(item)
        return ItemPage(items: items, next: end < all.count ? PageCursor(String(end)) : nil, totalCount: all.count)
    }

    /// A name the server accepts, normalised as it stores names.
    func accepted(_ name: String) throws -> String {
        try ItemPath.validate(name: name)
        guard rules.accepts(name) else { throw ProviderError(.invalidArgument, "the server refuses the name \(name.debugDescription)") }
        return rules.stored(name)
    }

    func parentFolder(_ key: Key) throws {
        guard let parent = nodes[key] else { throw ProviderError(.conflict, "the parent folder \(Self.path(key)) does not exist") }
        guard parent.kind == .folder else { throw ProviderError(.conflict, "\(Self.path(key)) is not a folder") }
    }

    // MARK: Writing

    mutating func newID() -> String {
        defer { nextID += 1 }
        return "n\(nextID)"
    }

    mutating func record(_ kind: Change.Kind, _ key: Key, from previous: Key? = nil) {
        touchAncestors(of: key)
        if let previous { touchAncestors(of: previous) }
        sequence += 1
        let item = kind == .deleted ? nil : try? item(key)
        log.append((sequence, Change(kind: kind, path: Self.path(key), previousPath: previous.map(Self.path), item: item)))
    }

    /// Gives every folder above `key` a new etag, like ownCloud and Nextcloud (``Capabilities/Features/recursiveETags``).
    mutating func touchAncestors(of key: Key) {
        var folder = key
        while !folder.bytes.isEmpty {
            folder = folder.parent
            nodes[folder]?.version += 1
        }
    }

    mutating func write(
        _ bytes: [UInt8], folder: ItemPath, name: String, conflict: ConflictPolicy, ifMatch: String?, modified: Date?, mimeType: String?
    ) throws -> Item {
        let parent = key(folder)
        try parentFolder(parent)
        var target = Key(parent.segments + [try accepted(name)])
        if let existing = nodes[target] {
            if let ifMatch, ifMatch != existing.etag {
                throw ProviderError(.preconditionFailed, "the file changed: \(existing.etag), not \(ifMatch)")
            }
            if existing.kind == .folder, conflict != .rename { throw ProviderError(.alreadyExists, "\(Self.path(target)) is a folder") }
            switch conflict {
            case .fail where ifMatch == nil: throw ProviderError(.alreadyExists, "\(Self.path(target)) already exists")
            case .rename: target = freeName(for: target)
            case .fail, .overwrite: break
            }
        } else if ifMatch != nil {
            throw ProviderError(.preconditionFailed, "\(Self.path(target)) does not exist")
        }
        let now = clock()
        var node = nodes[target] ?? Node(id: newID(), kind: .file, modified: now, created: now)
        let replaced = nodes[target] != nil
        node.bytes = bytes
        node.digests = Self.digests(of: bytes)
        node.modified = modified ?? now
        node.version += replaced ? 1 : 0
        node.mimeType = mimeType
        nodes[target] = node
        record(replaced ? .modified : .created, target)
        return try item(target)
    }

    func freeName(for key: Key) -> Key {
        let name = key.segments.last ?? "file"
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let suffix = dot.map { String(name[$0...]) } ?? ""
        var counter = 1
        while true {
            let candidate = Key(key.parent.segments + [rules.stored("\(stem) (\(counter))\(suffix)")])
            if nodes[candidate] == nil { return candidate }
            counter += 1
        }
    }

    mutating func makeFolder(_ name: String, in folder: ItemPath) throws -> Item {
        let parent = key(folder)
        try parentFolder(parent)
        let target = Key(parent.segments + [try accepted(name)])
        guard nodes[target] == nil else { throw ProviderError(.alreadyExists, "\(Self.path(target)) already exists") }
        let now = clock()
        nodes[target] = Node(id: newID(), kind: .folder, modified: now, created: now)
        record(.created, target)
        return try item(target)
    }

    mutating func delete(_ path: ItemPath) throws {
        let target = key(path)
        _ = try node(target)
        guard !target.bytes.isEmpty else { throw ProviderError(.forbidden, "the root cannot be deleted") }
        for key in nodes.keys where key == target || key.isBelow(target) { nodes[key] = nil }
        record(.deleted, target)
    }

    mutating func transfer(_ from: ItemPath, to: ItemPath, overwrite: Bool, keepSource: Bool) throws -> Item {
        let source = key(from)
        _ = try node(source)
        guard !to.isRoot else { throw ProviderError(.invalidArgument, "cannot replace the root") }
        let parent = key(to.parent)
        try parentFolder(parent)
        let target = Key(parent.segments + [try accepted(to.name)])
        guard target != source, !target.isBelow(source) else { throw ProviderError(.invalidArgument, "cannot move or copy \(from) into itself") }
        if nodes[target] != nil {
            guard overwrite else { throw ProviderError(.alreadyExists, "\(Self.path(target)) already exists") }
            for key in nodes.keys where key == target || key.isBelow(target) { nodes[key] = nil }
        }
        let moving = nodes.filter { $0.key == source || $0.key.isBelow(source) }
        for (key, node) in moving {
            var copy = node
            if keepSource { copy.id = newID() } else { nodes[key] = nil }
            nodes[key.replacingPrefix(source, with: target)] = copy
        }
        record(keepSource ? .created : .moved, target, from: keepSource ? nil : source)
        return try item(target)
    }

    // MARK: Helpers

    static func digests(of bytes: [UInt8]) -> [DigestAlgorithm: String] {
        var result: [DigestAlgorithm: String] = [:]
        for algorithm in [DigestAlgorithm.md5, .sha1, .sha256] {
            result[algorithm] = Digester.hex(algorithm, of: bytes)
        }
        return result
    }

    static func mimeType(for name: String) -> String {
        switch name.split(separator: ".").last?.lowercased() {
        case "txt": return "text/plain"
        case "json": return "application/json"
        case "html": return "text/html"
        default: return "application/octet-stream"
        }
    }
}

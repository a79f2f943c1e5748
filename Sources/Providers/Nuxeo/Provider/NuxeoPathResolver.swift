import Foundation
import ProviderAPI

/// Maps the provider's paths (display names below its root document) to Nuxeo uids.
///
/// Nuxeo addresses documents by uid, and its own path segments are not the names users chose
/// (the server trims, truncates to 24 characters and suffixes clashes). A path segment here is
/// a child's display name (`dc:title`), or else its server name, so that a URL naming
/// `/default-domain/workspaces` still works. Resolved uids are cached; the cache learns from
/// listings and writes, and forgets a path (and everything below it) when it is deleted or moved.
actor NuxeoPathResolver {
    struct Entry: Sendable {
        var uid: String
        var isFolder: Bool
        var path: ItemPath
    }

    private let client: NuxeoClient
    private let mapper: NuxeoItemMapper
    /// The provider root as a repository path (server names).
    let rootPath: String
    private var rootUid: String?
    /// Keyed by the path's exact bytes: Swift's `String` equality would merge NFC and NFD spellings.
    private var cache: [[UInt8]: Entry] = [:]
    private let cacheLimit = 200_000
    /// The cache key of each cached uid.
    private var keys: [String: [UInt8]] = [:]
    /// Paths forgotten because their document was deleted or moved, by uid.
    private var departed: [String: ItemPath] = [:]

    init(client: NuxeoClient, mapper: NuxeoItemMapper, rootPath: String) {
        self.client = client
        self.mapper = mapper
        self.rootPath = rootPath
    }

    static func key(_ path: ItemPath) -> [UInt8] { Array(path.description.utf8) }

    /// The uid of the provider root, fetched once.
    func root() async throws -> String {
        if let rootUid { return rootUid }
        let document = try await client.document(path: rootPath)
        rootUid = document.uid
        return document.uid
    }

    /// Whether `uid` is the provider root.
    func isRoot(_ uid: String) async throws -> Bool { try await root() == uid }

    /// Remembers that `path` is the document `uid`.
    func remember(_ path: ItemPath, uid: String, isFolder: Bool) {
        if path.isRoot { return }
        if cache.count >= cacheLimit {
            cache.removeAll(keepingCapacity: true)
            keys.removeAll(keepingCapacity: true)
        }
        let key = Self.key(path)
        cache[key] = Entry(uid: uid, isFolder: isFolder, path: path)
        keys[uid] = key
    }

    /// The path under which `uid` is cached now.
    func livePath(of uid: String) -> ItemPath? {
        keys[uid].flatMap { cache[$0]?.path }
    }

    /// The path this provider last saw for the document `uid`, if it saw it.
    func cachedPath(of uid: String) -> ItemPath? {
        livePath(of: uid) ?? departed[uid]
    }

    /// Forgets `path` and every path below it. Their last paths stay known by uid for a while, so
    /// that a change feed can still name a document deleted through this provider.
    func forget(_ path: ItemPath) {
        let prefix = Self.key(path)
        let gone = path.isRoot ? cache : cache.filter { key, _ in
            key == prefix || (key.count > prefix.count && key.starts(with: prefix) && key[prefix.count] == UInt8(ascii: "/"))
        }
        if gone.isEmpty { return }
        if departed.count + gone.count > cacheLimit { departed.removeAll(keepingCapacity: true) }
        for (key, entry) in gone {
            cache[key] = nil
            if keys[entry.uid] == key { keys[entry.uid] = nil }
            departed[entry.uid] = entry.path
        }
    }

    /// The uid of `path`, resolving uncached segments on the server.
    func uid(of path: ItemPath) async throws -> String {
        if path.isRoot { return try await root() }
        if let entry = cache[Self.key(path)] { return entry.uid }
        return try await resolve(path).uid
    }

    /// The document at `path`, fetched fresh (a cached uid that has gone is resolved again once).
    func document(at path: ItemPath, enrichers: [String] = []) async throws -> NuxeoDocument {
        if path.isRoot { return try await client.document(path: rootPath, enrichers: enrichers) }
        if let entry = cache[Self.key(path)] {
            do {
                let document = try await client.document(uid: entry.uid, enrichers: enrichers)
                if mapper.displayName(of: document).unicodeScalars.elementsEqual(path.name.unicodeScalars), !document.isTrashedValue {
                    return document
                }
            } catch let error as ProviderError where error.code == .notFound {}
            forget(path)
        }
        let found = try await resolve(path)
        if enrichers.isEmpty { return found }
        return try await client.document(uid: found.uid, enrichers: enrichers)
    }

    /// Resolves every segment of `path` from the nearest cached ancestor.
    private func resolve(_ path: ItemPath) async throws -> NuxeoDocument {
        var known = path.parent
        var missing: [String] = [path.name]
        while !known.isRoot, cache[Self.key(known)] == nil {
            missing.insert(known.name, at: 0)
            known = known.parent
        }
        var parentUid = try await uid(of: known)
        var current = known
        var document: NuxeoDocument?
        for name in missing {
            current = try current.appending(name)
            guard let child = try await child(named: name, of: parentUid) else {
                throw ProviderError(.notFound, "\(current) not found")
            }
            remember(current, uid: child.uid, isFolder: child.isFolderish)
            parentUid = child.uid
            document = child
        }
        guard let document else { throw ProviderError(.notFound, "\(path) not found") }
        return document
    }

    /// The child of `parent` whose display name is `name`, else the one whose server name is `name`.
    func child(named name: String, of parent: String, byServerName: Bool = true) async throws -> NuxeoDocument? {
        let literal = NXQLCompiler.literal(name)
        let nxql = "SELECT * FROM Document WHERE ecm:parentId = \(NXQLCompiler.literal(parent))"
            + " AND (dc:title = \(literal) OR ecm:name = \(literal))"
            + " AND ecm:isTrashed = 0 AND ecm:isVersion = 0 AND ecm:mixinType <> 'HiddenInNavigation'"
        let list = try await client.search(nxql: nxql, page: 0, pageSize: 100)
        let exact = list.entries.first { mapper.displayName(of: $0).unicodeScalars.elementsEqual(name.unicodeScalars) }
        if let exact { return exact }
        guard byServerName else { return nil }
        return list.entries.first { ($0.path?.split(separator: "/").last).map { String($0).unicodeScalars.elementsEqual(name.unicodeScalars) } ?? false }
    }
}

extension NuxeoDocument {
    /// Whether the document is in the trash.
    var isTrashedValue: Bool { isTrashed ?? false }
}

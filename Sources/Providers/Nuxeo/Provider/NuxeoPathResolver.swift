import Foundation
import ProviderAPI

/// Maps the provider's paths (display names below its root document) to Nuxeo uids.
///
/// Nuxeo addresses documents by uid, and its own path segments are not the names users chose
/// (the server trims, truncates to 24 characters and suffixes clashes). A path segment here is
/// a child's display name (`dc:title`), or else its server name, so that a URL naming
/// `/default-domain/workspaces` still works. Resolved uids are cached; the cache learns from
/// listings and writes, and forgets a path (and everything below it) when it is deleted or moved.
///
/// Display names are usually the server names too, so an uncached path is first asked for in one
/// request, `GET /path/{root}/{segments}` with the `breadcrumb` enricher; the answer is kept only
/// when every segment is the display name of the document at that server path (not trashed, not
/// hidden). Otherwise (a 404, a name the server rewrote, a sibling whose title is the segment)
/// the segments are resolved one by one with NXQL, as the rule above says.
actor NuxeoPathResolver {
    struct Entry: Sendable {
        var uid: String
        var isFolder: Bool
        var path: ItemPath
        /// The document's repository path (server names), when known.
        var serverPath: String?
        /// What the listing that named the file said of it, for the read that follows (see ``ListedFile``).
        var listed: ListedFile?
    }

    /// A file as a listing (or a fresh look-up) described it: enough to read its blob by uid in one
    /// request and check the answer against it. Used once, by the next download of the path
    /// (``takeListed(_:)``); any other news of the path (a write, a look-up, a move) drops it.
    struct ListedFile: Sendable {
        /// The item the listing mapped (its storage shared with the caller's).
        var item: Item
        /// The blob's `digest` as the document declared it, exactly: the blob answer's `ETag`
        /// (quoted) names the same content.
        var digest: String
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

    /// Takes `uid` as the provider root's, fetched by the caller (`NuxeoProvider.connect(_:)`).
    func adoptRoot(uid: String) {
        if rootUid == nil { rootUid = uid }
    }

    /// Whether `uid` is the provider root.
    func isRoot(_ uid: String) async throws -> Bool { try await root() == uid }

    /// The uid this resolver last knew the folder at `path` by, without asking the server (the
    /// folder may have been replaced since: ``document(at:enrichers:)`` checks it).
    func cachedFolderUid(_ path: ItemPath) -> String? {
        if path.isRoot { return rootUid }
        guard let entry = cache[Self.key(path)], entry.isFolder else { return nil }
        return entry.uid
    }

    /// Remembers that `path` is the document `uid`.
    func remember(_ path: ItemPath, uid: String, isFolder: Bool, serverPath: String? = nil) {
        if path.isRoot { return }
        if cache.count >= cacheLimit {
            cache.removeAll(keepingCapacity: true)
            keys.removeAll(keepingCapacity: true)
        }
        let key = Self.key(path)
        cache[key] = Entry(uid: uid, isFolder: isFolder, path: path, serverPath: serverPath)
        keys[uid] = key
    }

    /// Remembers the children of `folder` from one listing page, named by ``NuxeoItemMapper/displayName(of:)``.
    func remember(children documents: [NuxeoDocument], of folder: ItemPath) throws {
        for document in documents {
            remember(
                try folder.appending(serverName: mapper.displayName(of: document)), uid: document.uid, isFolder: document.isFolderish,
                serverPath: document.path)
        }
    }

    /// Remembers the children of one listing page as the caller mapped them: `items[i]` is
    /// `documents[i]`, placed where ``remember(children:of:)`` would place it, each file with what
    /// the listing said of it (``ListedFile``).
    func remember(children documents: [NuxeoDocument], as items: ArraySlice<Item>) {
        for (document, item) in zip(documents, items) {
            remember(item.path, uid: document.uid, isFolder: item.kind == .folder, serverPath: document.path)
            note(document, as: item)
        }
    }

    /// Keeps what `document`, just fetched or listed and mapped to `item`, says of its file, for
    /// the next download of `item.path`: only a file whose blob declares a digest (without one the
    /// blob answer cannot be matched to it), and only under the uid the path is cached with.
    func note(_ document: NuxeoDocument, as item: Item) {
        guard item.kind == .file, !item.path.isRoot, let digest = document.blob(at: mapper.blobXPath)?.digest, !digest.isEmpty else { return }
        let key = Self.key(item.path)
        guard cache[key]?.uid == document.uid else { return }
        cache[key]?.listed = ListedFile(item: item, digest: digest)
    }

    /// What the last listing or look-up said of the file at `path` (with the uid it is cached
    /// under), given once: the next call gives `nil` until the path is listed or looked up again.
    func takeListed(_ path: ItemPath) -> (uid: String, file: ListedFile)? {
        let key = Self.key(path)
        guard let entry = cache[key], let listed = entry.listed else { return nil }
        cache[key]?.listed = nil
        return (entry.uid, listed)
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
        return try await resolve(path).document.uid
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
        let found = try await resolve(path, enrichers: enrichers)
        if enrichers.isEmpty || found.enriched { return found.document }
        return try await client.document(uid: found.document.uid, enrichers: enrichers)
    }

    /// Resolves every segment of `path` from the nearest cached ancestor: in one request by
    /// server path when the names allow it (then with `enrichers`: `enriched` is true), else one
    /// NXQL search per segment.
    private func resolve(_ path: ItemPath, enrichers: [String] = []) async throws -> (document: NuxeoDocument, enriched: Bool) {
        var known = path.parent
        var missing: [String] = [path.name]
        while !known.isRoot, cache[Self.key(known)] == nil {
            missing.insert(known.name, at: 0)
            known = known.parent
        }
        // One NXQL search resolves a single segment below a known uid; more segments, or an
        // unknown root uid, cost more than one request by path.
        let base = known.isRoot ? rootPath : cache[Self.key(known)]?.serverPath
        if let base, missing.count > 1 || (known.isRoot && rootUid == nil),
            let document = try await lookUp(missing, below: known, serverPath: base, enrichers: enrichers)
        {
            return (document, true)
        }
        return (try await walk(missing, below: known, path: path), false)
    }

    /// The document at `segments` below `known` (whose repository path is `serverPath`), by its
    /// server path in one request, if that path names what the segments name; `nil` when the
    /// server has no such path or a segment names another document.
    ///
    /// A segment that is its document's display name names it. A segment that is only its server
    /// name (`default-domain` in a URL) names it when no sibling has it as display name: those
    /// segments are checked together in one NXQL search.
    private func lookUp(_ segments: [String], below known: ItemPath, serverPath: String, enrichers: [String]) async throws -> NuxeoDocument? {
        let base = serverPath.hasSuffix("/") ? String(serverPath.dropLast()) : serverPath
        var serverPaths: [String] = []
        var current = base
        for segment in segments {
            current += "/" + segment
            serverPaths.append(current)
        }
        let document: NuxeoDocument
        do {
            document = try await client.document(path: current, enrichers: enrichers + ["breadcrumb"])
        } catch let error as ProviderError where error.code == .notFound || error.code == .forbidden {
            // Not there by these server names, or not readable so: the searches decide, as before.
            return nil
        }
        var byPath: [[UInt8]: NuxeoDocument] = [:]
        if case .object(let members)? = document.contextParameters["breadcrumb"] {
            for entry in members["entries"]?.arrayValue ?? [] {
                guard let ancestor = try? NuxeoDocument(nuxeoJSON: entry), let ancestorPath = ancestor.path else { continue }
                byPath[Self.pathKey(ancestorPath)] = ancestor
            }
        }
        if let documentPath = document.path { byPath[Self.pathKey(documentPath)] = document }
        var parentUid: String? = known.isRoot ? rootUid : cache[Self.key(known)]?.uid
        var chain: [NuxeoDocument] = []
        var serverNamed: [(parent: String, name: String)] = []
        for (segment, segmentPath) in zip(segments, serverPaths) {
            guard let ancestor = byPath[Self.pathKey(segmentPath)], ancestor.path.map({ Self.same($0, segmentPath) }) ?? false,
                !ancestor.isTrashedValue, ancestor.isVersion != true, !ancestor.facets.contains("HiddenInNavigation"),
                let parent = parentUid ?? ancestor.parentRef, ancestor.parentRef.map({ $0 == parent }) ?? true
            else { return nil }
            if !mapper.displayName(of: ancestor).unicodeScalars.elementsEqual(segment.unicodeScalars) {
                serverNamed.append((parent, segment))
            }
            if chain.isEmpty, known.isRoot, rootUid == nil, parent != "/" { rootUid = parent }
            chain.append(ancestor)
            parentUid = ancestor.uid
        }
        if !serverNamed.isEmpty, try await hasTitleClash(serverNamed) { return nil }
        // Remembered under the segments as given (a URL's server names stay server names).
        var path = known
        for (index, ancestor) in chain.enumerated() {
            path = try path.appending(segments[index])
            remember(path, uid: ancestor.uid, isFolder: ancestor.isFolderish, serverPath: serverPaths[index])
        }
        return document
    }

    /// Whether a child of one of the `parent`s has its `name` as display name (which would take
    /// precedence over the document of that server name).
    private func hasTitleClash(_ pairs: [(parent: String, name: String)]) async throws -> Bool {
        let alternatives = pairs.map { pair in
            "(ecm:parentId = \(NXQLCompiler.literal(pair.parent)) AND dc:title = \(NXQLCompiler.literal(pair.name)))"
        }
        let nxql = "SELECT * FROM Document WHERE (" + alternatives.joined(separator: " OR ") + ")"
            + " AND ecm:isTrashed = 0 AND ecm:isVersion = 0 AND ecm:mixinType <> 'HiddenInNavigation'"
        let list = try await client.search(nxql: nxql, page: 0, pageSize: 100)
        if list.hasNextPage { return true }  // too many to tell: resolve one segment at a time
        return list.entries.contains { entry in
            pairs.contains { pair in
                (entry.parentRef.map { $0 == pair.parent } ?? true)
                    && mapper.displayName(of: entry).unicodeScalars.elementsEqual(pair.name.unicodeScalars)
            }
        }
    }

    /// A repository path as a dictionary key: its exact Unicode scalars (NFC and NFD stay apart).
    private static func pathKey(_ path: String) -> [UInt8] {
        Array(path.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ",").utf8)
    }

    /// Whether two repository paths are the same scalars.
    private static func same(_ a: String, _ b: String) -> Bool { a.unicodeScalars.elementsEqual(b.unicodeScalars) }

    /// Resolves `missing` below `known` one segment at a time (one NXQL search each).
    private func walk(_ missing: [String], below known: ItemPath, path: ItemPath) async throws -> NuxeoDocument {
        var parentUid = try await uid(of: known)
        var current = known
        var document: NuxeoDocument?
        for name in missing {
            current = try current.appending(name)
            guard let child = try await child(named: name, of: parentUid) else {
                throw ProviderError(.notFound, "\(current) not found")
            }
            remember(current, uid: child.uid, isFolder: child.isFolderish, serverPath: child.path)
            parentUid = child.uid
            document = child
        }
        guard let document else { throw ProviderError(.notFound, "\(path) not found") }
        return document
    }

    /// The child of `parent` whose display name is `name`, else the one whose server name is `name`.
    func child(named name: String, of parent: String, byServerName: Bool = true) async throws -> NuxeoDocument? {
        let nxql = "SELECT * FROM Document WHERE " + Self.childCondition(name, of: parent)
        let list = try await client.search(nxql: nxql, page: 0, pageSize: 100)
        return pick(name, among: list.entries, byServerName: byServerName)
    }

    /// ``child(named:of:byServerName:)`` by display name, and the folder `folder` (whose uid is
    /// `parent`) checked in the same search: `folderHolds` is false when the uid no longer names a
    /// folder at that path (gone, in the trash, renamed: its display name is not `folder.name`),
    /// and the child found then means nothing.
    func child(named name: String, of parent: String, checking folder: ItemPath) async throws -> (child: NuxeoDocument?, folderHolds: Bool) {
        let nxql = "SELECT * FROM Document WHERE (" + Self.childCondition(name, of: parent) + ")"
            + " OR (ecm:uuid = \(NXQLCompiler.literal(parent)) AND ecm:isTrashed = 0)"
        let list = try await client.search(nxql: nxql, page: 0, pageSize: 100)
        let holds = list.entries.contains { document in
            document.uid == parent && document.isFolderish && !document.isTrashedValue
                && mapper.displayName(of: document).unicodeScalars.elementsEqual(folder.name.unicodeScalars)
        }
        return (pick(name, among: list.entries.filter { $0.uid != parent && $0.parentRef.map { $0 == parent } ?? true }, byServerName: false), holds)
    }

    /// The NXQL condition of the live children of `parent` whose title or server name is `name`.
    private static func childCondition(_ name: String, of parent: String) -> String {
        let literal = NXQLCompiler.literal(name)
        return "ecm:parentId = \(NXQLCompiler.literal(parent))"
            + " AND (dc:title = \(literal) OR ecm:name = \(literal))"
            + " AND ecm:isTrashed = 0 AND ecm:isVersion = 0 AND ecm:mixinType <> 'HiddenInNavigation'"
    }

    /// The document among `entries` whose display name is `name`, else (`byServerName`) the one whose server name is.
    private func pick(_ name: String, among entries: [NuxeoDocument], byServerName: Bool) -> NuxeoDocument? {
        let exact = entries.first { mapper.displayName(of: $0).unicodeScalars.elementsEqual(name.unicodeScalars) }
        if let exact { return exact }
        guard byServerName else { return nil }
        return entries.first { ($0.path?.split(separator: "/").last).map { String($0).unicodeScalars.elementsEqual(name.unicodeScalars) } ?? false }
    }
}

extension NuxeoDocument {
    /// Whether the document is in the trash.
    var isTrashedValue: Bool { isTrashed ?? false }
}

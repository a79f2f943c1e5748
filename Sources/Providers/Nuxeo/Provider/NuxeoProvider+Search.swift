import Foundation
import ProviderAPI
import ProviderKit

extension NuxeoProvider {
    /// Searches with NXQL compiled from the portable `query`, scoped to the provider root;
    /// `.native` NXQL is passed through untouched and its results outside the root are left out.
    public func search(_ query: Query, page: PageRequest) async throws -> ItemPage {
        let root = try await resolver.root()
        var index = 0
        if let cursor = page.cursor { index = try ListingCursor.read(cursor, scope: "search", of: "a search").number() }
        let nxql: String
        var native = false
        if case .native(let statement) = query {
            nxql = statement
            native = true
        } else {
            var locations: [String: String] = [ItemPath.root.description: root]
            for path in Self.underPaths(in: query) { locations[path.description] = try await resolver.uid(of: path) }
            let resolved = locations
            let compiler = NXQLCompiler(options: NXQLCompiler.Options(resolveLocation: { path in
                guard let uid = resolved[path.description] else { throw ProviderError(.notFound, "\(path) not found") }
                return .ancestorId(uid)
            }))
            let scoped: Query = settings.rootPath == "/" ? query : .and([query, .under(.root)])
            nxql = try compiler.compile(scoped, sort: page.sort)
        }
        let pageSize = max(1, min(page.limit ?? 100, 1000))
        let list = try await client.search(nxql: nxql, page: index, pageSize: pageSize, enrichers: ["breadcrumb"])
        var items: [Item] = []
        for document in list.entries {
            guard let path = try await path(of: document, root: root) else { continue }
            items.append(mapper.item(from: document, at: path))
        }
        let next = list.hasNextPage && index < Int.max ? ListingCursor(number: index + 1, scope: "search").cursor : nil
        return ItemPage(items: items, next: next, totalCount: native ? nil : list.knownResultsCount)
    }

    /// The provider path of `document` from its `breadcrumb` enricher, or `nil` when it is outside the root.
    ///
    /// Ancestors this provider already knows keep the path they were reached by (a URL's server
    /// names, say); the rest, and the document itself, are named by their display names.
    func path(of document: NuxeoDocument, root: String) async throws -> ItemPath? {
        guard case .object(let members)? = document.contextParameters["breadcrumb"] else {
            throw ProviderError(.invalidResponse, "the server did not send the breadcrumb of \(document.uid)")
        }
        var chain = try (members["entries"]?.arrayValue ?? []).map(NuxeoDocument.init(nuxeoJSON:))
        if chain.last?.uid != document.uid { chain.append(document) }
        if settings.rootPath != "/" {
            guard let start = chain.firstIndex(where: { $0.uid == root }) else { return nil }
            chain.removeFirst(start + 1)
        }
        guard !chain.isEmpty else { return nil }
        var path = ItemPath.root
        var named = 0
        for index in chain.indices.dropLast().reversed() {
            if let known = await resolver.livePath(of: chain[index].uid) {
                path = known
                named = index + 1
                break
            }
        }
        for ancestor in chain[named...] {
            path = try path.appending(serverName: mapper.displayName(of: ancestor))
            await resolver.remember(path, uid: ancestor.uid, isFolder: ancestor.isFolderish)
        }
        return path
    }

    static func underPaths(in query: Query) -> [ItemPath] {
        switch query {
        case .under(let path): return [path]
        case .and(let parts), .or(let parts): return parts.flatMap(underPaths(in:))
        case .not(let inner): return underPaths(in: inner)
        default: return []
        }
    }

    /// Changes below the root since `token`: from Nuxeo Drive's change summary where the settings
    /// choose it (``NuxeoChangeFeed``), else from a `dc:modified` query (trashed documents are
    /// reported as deleted; permanent deletes are not visible to a query, so a periodic listing
    /// is still needed to see them).
    ///
    /// The token is the newest modification time seen plus the uids modified at that very
    /// millisecond, so that nothing modified at the boundary is reported twice or missed.
    public func changes(since token: ChangeToken?) async throws -> ChangeBatch {
        if let token, token.rawValue.hasPrefix("drive|") { return try await driveChanges(since: token) }
        if token == nil, try await usesDriveFeed() { return try await driveChanges(since: nil) }
        let root = try await resolver.root()
        let scope = settings.rootPath == "/" ? "ecm:isVersion = 0" : "ecm:ancestorId = \(NXQLCompiler.literal(root)) AND ecm:isVersion = 0"
        guard let token else {
            let newest = try await client.search(
                nxql: "SELECT * FROM Document WHERE \(scope) ORDER BY dc:modified DESC", page: 0, pageSize: 1)
            let date = newest.entries.first.flatMap { mapper.item(from: $0, at: .root).modified } ?? Date(timeIntervalSince1970: 0)
            return ChangeBatch(changes: [], next: NuxeoChangeToken(date: date, uids: newest.entries.map(\.uid)).token)
        }
        guard let since = NuxeoChangeToken(token) else {
            throw ProviderError(.invalidArgument, "\(token) is not a Nuxeo change token")
        }
        let nxql = "SELECT * FROM Document WHERE \(scope) AND dc:modified >= \(NXQLCompiler.timestamp(since.date)) ORDER BY dc:modified ASC"
        let list = try await client.search(nxql: nxql, page: 0, pageSize: 200, enrichers: ["breadcrumb"])
        var changes: [Change] = []
        var next = since
        for document in list.entries {
            guard let modified = mapper.item(from: document, at: .root).modified else { continue }
            let millis = NuxeoChangeToken.millis(modified)
            if millis < since.millis || (millis == since.millis && since.uids.contains(document.uid)) { continue }
            if millis > next.millis {
                next = NuxeoChangeToken(date: modified, uids: [document.uid])
            } else {
                next.uids.insert(document.uid)
            }
            guard let path = try await path(of: document, root: root) else { continue }
            let trashed = document.isTrashedValue
            changes.append(Change(kind: trashed ? .deleted : .modified, path: path, item: trashed ? nil : mapper.item(from: document, at: path)))
        }
        return ChangeBatch(changes: changes, next: next.token, hasMore: list.hasNextPage)
    }
}

/// A position in the `dc:modified` change feed.
struct NuxeoChangeToken: Hashable {
    var date: Date
    var uids: Set<String>

    init(date: Date, uids: some Sequence<String>) {
        self.date = date
        self.uids = Set(uids)
    }

    init?(_ token: ChangeToken) {
        let parts = token.rawValue.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2, let millis = Int64(parts[0]) else { return nil }
        date = Date(timeIntervalSince1970: Double(millis) / 1000)
        uids = Set(parts[1].split(separator: ",").map(String.init))
    }

    var millis: Int64 { Self.millis(date) }

    static func millis(_ date: Date) -> Int64 { UnixTime.clampedMilliseconds(date) }

    var token: ChangeToken { ChangeToken("\(millis)|\(uids.sorted().joined(separator: ","))") }
}

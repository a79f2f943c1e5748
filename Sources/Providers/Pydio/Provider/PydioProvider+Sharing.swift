import Foundation
import ProviderAPI
import HTTPProviderKit

extension PydioProvider {
    /// Searches the workspace's index (`get_action=search`) below the root (or the query's
    /// `.under` folder); names and full text go to the indexer, the other predicates are applied
    /// to the results here. `.native` passes a Lucene query through.
    ///
    /// The folder is not sent as `current_dir`: the server's Lucene expands it into one term per
    /// indexed path below it and refuses a folder that ever held more than 1,024 files ("Terms per
    /// query limit is reached.", recording 54). The whole workspace is searched (recording 55) and
    /// the hits outside the folder are dropped here; a limit goes to the server only when nothing
    /// is dropped.
    public func search(_ query: Query, page: PageRequest) async throws -> ItemPage {
        let (text, scope) = Self.searchText(query)
        guard let text, !text.isEmpty else {
            throw ProviderError(.invalidArgument, "a Pydio search needs a name or a word to look for")
        }
        if Self.wantsContent(query) {
            try capabilities.require(.fullTextSearch, for: "full-text search (this workspace does not index file contents)")
        }
        var extra: [(String, String)] = [("query", text)]
        if Self.wantsContent(query) { extra.append(("fields", "filename,ajxp_document_content")) }
        let folder = scope ?? .root
        if let limit = page.limit, remote(folder) == "/" { extra.append(("limit", String(max(1, limit) * 4))) }
        let listing = try await session.call("search", parameters(extra), chain: PydioRecognizers.chain(PydioRecognizers.listing))
        var items: [Item] = []
        for node in listing.children where !node.path.hasPrefix("/recycle_bin") {
            guard let path = local(node.path), path.isDescendant(of: folder) else { continue }
            let found = item(node, at: path)
            if case .native = query { items.append(found) } else if query.matchesStructure(found) { items.append(found) }
        }
        if let limit = page.limit, items.count > limit { items = Array(items.prefix(limit)) }
        return ItemPage(items: items)
    }

    /// Whether the query asks for words in the content, not only in names.
    static func wantsContent(_ query: Query) -> Bool {
        switch query {
        case .fullText: return true
        case .and(let parts), .or(let parts): return parts.contains(where: wantsContent)
        case .not(let inner): return wantsContent(inner)
        default: return false
        }
    }

    /// The text to send to the indexer and the folder to search below.
    static func searchText(_ query: Query) -> (String?, ItemPath?) {
        switch query {
        case .nameContains(let text), .fullText(let text): return (text, nil)
        case .native(let text): return (text, nil)
        case .under(let path): return (nil, path)
        case .and(let parts):
            var text: String?
            var scope: ItemPath?
            for part in parts {
                let (t, s) = searchText(part)
                text = text ?? t
                scope = scope ?? s
            }
            return (text, scope)
        default: return (nil, nil)
        }
    }

    public func shares(of path: ItemPath) async throws -> [Share] {
        let node = try await requireNode(path)
        let data: JSONValue
        do {
            data = try await session.call(
                "load_shared_element_data", parameters([("file", remote(path)), ("element_type", node.isFile ? "file" : "repository")]),
                post: true, chain: PydioRecognizers.chain(PydioRecognizers.json))
        } catch let error as ProviderError where error.code == .notFound || (error.message ?? "").contains("Cannot find share") {
            return []
        }
        return PydioShareLink.links(in: data).map { link in
            var properties = ["expire_after": String(link.expireAfterDays ?? 0), "is_expired": String(link.isExpired)]
            if let time = link.expireTime { properties["expire_time"] = time }
            return Share(
                id: link.hash, path: path, kind: .publicLink, permissions: link.downloadDisabled ? [] : .read, url: link.url,
                downloadURL: node.isFile && !link.downloadDisabled ? link.url.flatMap { Self.downloadURL(of: $0, name: path.name) } : nil,
                expires: link.expires, passwordProtected: link.hasPassword, properties: properties)
        }
    }

    /// Makes a public link (`share`, `create_minisite`); a password and an expiry in days are passed on.
    ///
    /// Pydio keeps an expiry in whole days from the moment the link is made (`expiration`, the
    /// days asked rounded up): the share's `expires` is that moment plus those days, up to a day
    /// later than asked (the provider's capabilities declare the granularity, `Capabilities.shareExpiryGranularity`). Its `url` is the
    /// link's page (the minisite); for a file, `downloadURL` is `<url>/dl/<name>`, which answers
    /// the file's bytes (recording 32).
    public func share(_ path: ItemPath, with request: ShareRequest) async throws -> Share {
        guard capabilities.shareKinds.contains(request.kind.tag) else {
            throw ProviderError.unsupported("\(request.kind.tag.rawValue) shares on Pydio")
        }
        let node = try await requireNode(path)  // notFound before making a link
        var extra: [(String, String)] = [
            ("file", remote(path)), ("sub_action", "create_minisite"), ("create_guest_user", "true"),
            ("simple_right_read", "true"), ("simple_right_download", "true"),
        ]
        if let password = request.password { extra.append(("guest_user_pass", password)) }
        var days: Int?
        if let expires = request.expires {
            let whole = (expires.timeIntervalSinceNow / 86_400).rounded(.up)
            guard whole.isFinite, whole < 3_000_000 else { throw ProviderError(.invalidArgument, "the share expiry is out of range") }
            days = max(1, Int(whole))
            extra.append(("expiration", String(max(1, Int(whole)))))
        }
        let link = try await session.call("share", parameters(extra), post: true, chain: PydioRecognizers.chain(PydioRecognizers.text))
        guard let url = URL(string: link), let hash = url.pathComponents.last, url.scheme != nil else {
            throw ProviderError(.invalidResponse, "the share answered \(link.prefix(80)), not a link")
        }
        // The server counts the days from its receipt of the request, a moment ago.
        let expires = days.map { Date().addingTimeInterval(TimeInterval($0) * 86_400) }
        var properties: [String: String] = [:]
        if let days { properties["expire_after"] = String(days) }
        return Share(
            id: hash, path: path, kind: .publicLink, permissions: .read, url: url,
            downloadURL: node.isFile ? Self.downloadURL(of: url, name: path.name) : nil, expires: expires,
            passwordProtected: request.password != nil, properties: properties)
    }

    /// A link's direct download, `<link>/dl/<name>` (the name percent-encoded as one segment).
    static func downloadURL(of link: URL, name: String) -> URL? {
        var text = link.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + "/dl/" + PercentEncoding.encode(name, allowing: PercentEncoding.isUnreserved))
    }

    public func revoke(_ share: Share) async throws {
        let node = try await requireNode(share.path)
        try await write("unshare", [
            ("file", remote(share.path)), ("element_type", node.isFile ? "file" : "repository"), ("element_id", share.id),
        ])
    }

    func requireNode(_ path: ItemPath) async throws -> PydioNode {
        guard let node = try await node(at: path) else { throw ProviderError(.notFound, "\(path) not found") }
        return node
    }
}

extension Query {
    /// Whether `item` meets the predicates a name search cannot express (kind, MIME type, size,
    /// dates); the text predicates are the indexer's.
    func matchesStructure(_ item: Item) -> Bool {
        switch self {
        case .nameContains, .fullText, .native, .under: return true
        case .and(let parts): return parts.allSatisfy { $0.matchesStructure(item) }
        case .or(let parts): return parts.contains { $0.matchesStructure(item) }
        case .not(let inner): return !inner.matchesStructure(item)
        default: return matches(item)
        }
    }
}

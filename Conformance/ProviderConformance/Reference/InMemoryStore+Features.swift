import Foundation
import ProviderAPI

extension InMemoryStore {
    /// Capacity reported by ``quota()``.
    static let capacity: Int64 = 1 << 40

    func search(_ query: Query, limit: Int?, cursor: String?) throws -> ItemPage {
        let matches = try nodes.keys.filter { !$0.bytes.isEmpty }.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) { $0.lexicographicallyPrecedes($1) } }
            .filter { key in try query.matches(item(key), content: nodes[key]?.bytes ?? []) }
        let start = cursor.flatMap(Int.init) ?? 0
        guard start >= 0, start <= matches.count else { throw ProviderError(.invalidArgument, "invalid cursor") }
        let end = limit.map { min(matches.count, start + max(1, $0)) } ?? matches.count
        return ItemPage(
            items: try matches[start..<end].map(item), next: end < matches.count ? PageCursor(String(end)) : nil,
            totalCount: matches.count)
    }

    func quota() -> Quota {
        let used = nodes.values.reduce(Int64(0)) { $0 + Int64($1.bytes.count) }
        return Quota(used: used, available: Self.capacity - used)
    }

    func changes(since token: String?) throws -> ChangeBatch {
        guard let token else { return ChangeBatch(changes: [], next: ChangeToken(String(sequence))) }
        guard let since = Int(token), since >= 0, since <= sequence else {
            throw ProviderError(.invalidArgument, "invalid change token \(token)")
        }
        let pending = log.filter { $0.sequence > since }
        let batch = pending.prefix(200)
        let next = batch.last?.sequence ?? since
        return ChangeBatch(changes: batch.map(\.change), next: ChangeToken(String(next)), hasMore: pending.count > batch.count)
    }

    func shares(of path: ItemPath) throws -> [Share] {
        let target = key(path)
        _ = try node(target)
        return shares.values.filter { key($0.path) == target }.sorted { $0.id < $1.id }
    }

    mutating func share(_ path: ItemPath, _ request: WireShareRequest) throws -> Share {
        let target = key(path)
        _ = try node(target)
        let id = "share-\(newID())"
        let isLink = request.kind == .publicLink
        let isFile = nodes[target]?.kind == .file
        let share = Share(
            id: id, path: Self.path(target), kind: request.kind, permissions: request.permissions,
            url: isLink ? InMemoryWire.linkURL(id) : nil, downloadURL: isLink && isFile ? InMemoryWire.linkURL(id, download: true) : nil,
            expires: request.expires, passwordProtected: request.password != nil)
        shares[id] = share
        if isLink, let password = request.password { linkPasswords[id] = password }
        return share
    }

    mutating func revoke(_ id: String) throws {
        guard shares.removeValue(forKey: id) != nil else { throw ProviderError(.notFound, "no share \(id)") }
        linkPasswords[id] = nil
    }

    /// What a `GET` of a public link (`/s/ID`, `/s/ID/download`) answers, asked without credentials
    /// or with the link's password as the Basic password: a page naming the item, the file's bytes,
    /// 401 without the password, 404 for an unknown or expired link.
    func openLink(_ id: String, download: Bool, password: String?) -> (status: Int, bytes: [UInt8]) {
        guard let share = shares[id], share.kind == .publicLink, share.expires.map({ $0 > clock() }) ?? true,
            let node = nodes[key(share.path)]
        else { return (404, Array("no such link".utf8)) }
        if let wanted = linkPasswords[id], password != wanted { return (401, Array("password required".utf8)) }
        guard download else { return (200, Array("<html><body>\(share.path.name)</body></html>".utf8)) }
        guard node.kind == .file else { return (404, Array("a folder has no download".utf8)) }
        return (200, node.bytes)
    }
}

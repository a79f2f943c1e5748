import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI

extension InMemoryProvider {
    package func search(_ query: Query, page: PageRequest) async throws -> ItemPage {
        try await require(.search, "search")
        var headers: [(String, String)] = []
        if let limit = page.limit { headers.append((InMemoryWire.limitHeader, String(limit))) }
        if let cursor = page.cursor { headers.append((InMemoryWire.cursorHeader, cursor.rawValue)) }
        let body = try InMemoryWire.encodeJSON(query)
        var result = try await call(ItemPage.self, .SEARCH, .root, headers: headers, body: .bytes(body))
        result.items = result.items.map(visible)
        return result
    }

    package func shares(of path: ItemPath) async throws -> [Share] {
        try await require(.shares, "shares")
        var shares = try await call([Share].self, .REPORT, path, headers: [(InMemoryWire.operationHeader, "shares")])
        // The adapter that dropped the password believes its links protected, in listings too.
        if defects.contains(.dropsLinkPassword) { shares = shares.map { var share = $0; share.passwordProtected = true; return share } }
        return shares
    }

    package func share(_ path: ItemPath, with request: ShareRequest) async throws -> Share {
        try await require(.shares, "sharing")
        guard capabilities.shareKinds.contains(request.kind.tag) else {
            throw ProviderError.unsupported("sharing as .\(request.kind.tag.rawValue)")
        }
        var wire = WireShareRequest(request)
        if defects.contains(.dropsLinkPassword) { wire.password = nil }
        if defects.contains(.hidesRoundedExpiry) { wire.expires = request.expires?.addingTimeInterval(65 * 60) }
        let body = try InMemoryWire.encodeJSON(wire)
        var share = try await call(Share.self, .POST, path, headers: [(InMemoryWire.operationHeader, "share")], body: .bytes(body))
        if defects.contains(.linksToPageOnly) { share.downloadURL = nil }
        if defects.contains(.dropsLinkPassword) { share.passwordProtected = request.password != nil }
        if defects.contains(.hidesRoundedExpiry) { share.expires = request.expires }
        return share
    }

    package func revoke(_ share: Share) async throws {
        try await require(.shares, "revoking shares")
        _ = try await exchange(.DELETE, share.path, headers: [(InMemoryWire.operationHeader, "revoke"), (InMemoryWire.shareHeader, share.id)])
    }

    package func changes(since token: ChangeToken?) async throws -> ChangeBatch {
        try await require(.changes, "changes")
        var headers = [(InMemoryWire.operationHeader, "changes")]
        if let token { headers.append((InMemoryWire.sinceHeader, token.rawValue)) }
        return try await call(ChangeBatch.self, .REPORT, .root, headers: headers)
    }

    package func quota() async throws -> Quota {
        try await require(.quota, "quota")
        return try await call(Quota.self, .REPORT, .root, headers: [(InMemoryWire.operationHeader, "quota")])
    }
}

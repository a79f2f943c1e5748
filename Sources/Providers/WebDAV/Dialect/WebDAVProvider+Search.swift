import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderKit
import HTTPProviderKit

extension WebDAVProvider {
    /// Searches with WebDAV `SEARCH` on `remote.php/dav` (the portable query compiled to DASL), ordered by
    /// name. Pages are offsets into that order (a `ListingCursor` of the scope `search`, cut as
    /// `SnapshotPager` cuts): each asks for `offset + limit + 1` results, so a first page costs
    /// no more than its own results.
    public func search(_ query: Query, page: PageRequest) async throws -> ItemPage {
        try capabilities.require(.search, for: "search")
        let dialect = try requireDialect("search")
        let offset = try page.cursor.map { try ListingCursor.read($0, scope: "search", of: "a search").number() } ?? 0
        let limit = page.limit.map { max(1, $0) }
        let body: String
        if case .native(let document) = query {
            body = document
        } else {
            let compiled = try DAVSearchCompiler.compile(query)
            let scope = "/files/\(dialect.user)" + userPath(for: compiled.scope)
            body = DAVSearchCompiler.body(
                compiled, scopeHref: scope.hasSuffix("/") ? String(scope.dropLast()) : scope,
                properties: OwnCloudProperties.selectProperties, limit: limit.map { offset + $0 + 1 })
        }
        let found = try await runSearch(body, dialect: dialect)
        let (range, following) = SnapshotPager.cut(count: found.count, offset: offset, limit: limit)
        let next = following.map { ListingCursor(number: $0, scope: "search").cursor }
        return ItemPage(items: Array(found[range]), next: next)
    }

    /// Sends one `SEARCH` and maps its answer to items below the provider's root.
    func runSearch(_ body: String, dialect: WebDAVDialect) async throws -> [Item] {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/xml; charset=utf-8")
        let request = TransportRequest(
            method: HTTPMethod(rawValue: "SEARCH"), url: dialect.url("remote.php/dav/"), headers: headers,
            body: .bytes(ByteBuffer(string: body)), isIdempotent: true)
        let response = try await executor.execute(request)
        guard response.status == 207 else {
            throw await error(for: response, request: request, path: nil) { status in
                [400, 422].contains(status) ? .invalidArgument : (status == 501 || status == 405 ? .unsupported : nil)
            }
        }
        let data = try await collect(response, request: request)
        let responses: [DAVResponse]
        do { responses = try MultistatusParser.parse(data) } catch var failure as ProviderError {
            failure.request = request.summary
            throw failure
        }
        var items: [Item] = []
        for entry in responses {
            if let status = entry.status, !(200..<300).contains(status) { continue }
            guard let path = try itemPath(forFilesHref: entry.href, dialect: dialect), !path.isRoot else { continue }
            let item = DAVItemMapper.item(path: path, properties: entry.found)
            items.append(OwnCloudProperties.refine(item, properties: entry.found))
        }
        return items
    }

    /// The item path of an href below `remote.php/dav/files/USER/`, or `nil` outside the provider's root.
    func itemPath(forFilesHref href: String, dialect: WebDAVDialect) throws -> ItemPath? {
        var text = Substring(href)
        if let scheme = text.range(of: "://") {
            text = text[scheme.upperBound...]
            text = text[(text.firstIndex(of: "/") ?? text.endIndex)...]
        }
        let segments = try DAVPathMapper.decodeSegments(String(text))
        let home = try DAVPathMapper.decodeSegments(dialect.filesRoot.path)
        guard segments.starts(with: home) else {
            throw ProviderError(.invalidResponse, "a search result outside the user's files: \(href.prefix(200))")
        }
        let prefix = userRootSegments
        let rest = Array(segments.dropFirst(home.count))
        guard rest.starts(with: prefix) else { return nil }
        do {
            return try ItemPath(segments: Array(rest.dropFirst(prefix.count)))
        } catch {
            throw ProviderError(.invalidResponse, "the server sent an invalid href: \(href.prefix(200))")
        }
    }
}

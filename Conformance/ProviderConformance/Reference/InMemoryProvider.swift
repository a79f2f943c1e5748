import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

/// A reference adapter that keeps everything in an ``InMemoryServer``, used to prove the
/// conformance suite itself.
///
/// Every call is one HTTP exchange sent through a `RequestExecutor` over the transport
/// it is given (by default the server itself), and downloads use `HTTPDownloader`,
/// exactly as a real adapter's do. Calls outside ``capabilities`` throw
/// `ProviderError.Code.unsupported` before any request, and properties of undeclared
/// features (etags, digests, MIME types, stable ids, permissions) are left out of items.
/// ``Defects`` break it on purpose, to show that the suite notices.
///
/// ```swift
/// let server = InMemoryServer()
/// let provider = InMemoryProvider(transport: server, capabilities: InMemoryProvider.fullCapabilities)
/// try await provider.upload(data: Data("hi".utf8), to: "/hello.txt")
/// ```
package struct InMemoryProvider: StorageProvider {
    /// Deliberate bugs, for tests that prove the suite can fail.
    package struct Defects: OptionSet, Sendable, Hashable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        /// Every page after the first loses its first entry.
        package static let dropsEntryWhenPaging = Defects(rawValue: 1 << 0)
        /// `item(at:)` reports files one byte larger than they are.
        package static let reportsWrongSize = Defects(rawValue: 1 << 1)
        /// Undeclared optional calls send a request before throwing `.unsupported`.
        package static let sendsRequestWhenUnsupported = Defects(rawValue: 1 << 2)
        /// Uploads with `ConflictPolicy.fail` replace existing files.
        package static let ignoresFailPolicy = Defects(rawValue: 1 << 3)
        /// Downloads take whatever body arrives, with no size check.
        package static let acceptsShortDownloads = Defects(rawValue: 1 << 4)
        /// Uploads with `ConflictPolicy.fail` look for the name first and then write over whatever
        /// is there, a moment later: two racing creates can both succeed.
        package static let checksThenCreates = Defects(rawValue: 1 << 5)
        /// Item ids are paths although `Capabilities.Features.stableIDs` is declared.
        package static let idsFollowPaths = Defects(rawValue: 1 << 6)
        /// Items say they are read-only although every call is allowed.
        package static let understatesPermissions = Defects(rawValue: 1 << 7)
        /// Listing pages declare one entry more than the folder holds (`ItemPage.totalCount`).
        package static let overstatesCount = Defects(rawValue: 1 << 8)
        /// An upload given a modified time stores an empty file (the bug of an adapter that sets
        /// the time in a second request that sends no body).
        package static let emptiesDatedUploads = Defects(rawValue: 1 << 9)
        /// Public links come back with only the link to the item's page, which answers HTML, and
        /// no `Share.downloadURL` (the broken Pydio links: a link that opens no file).
        package static let linksToPageOnly = Defects(rawValue: 1 << 10)
        /// A link's password is not sent, so the link opens for anyone, while the share says it is protected.
        package static let dropsLinkPassword = Defects(rawValue: 1 << 11)
        /// The server keeps a link 65 minutes longer than asked and the share reports the asked
        /// expiry (Pydio's whole days, unreported).
        package static let hidesRoundedExpiry = Defects(rawValue: 1 << 12)
    }

    /// Every feature, all three digests, millisecond modified times, public links and user shares.
    package static let fullCapabilities = Capabilities(
        features: [
            .paging, .rangeDownload, .resumeDownload, .preconditions, .exclusiveCreate, .move, .copy, .setModifiedTime,
            .etags, .digests, .mimeTypes, .stableIDs, .search, .fullTextSearch, .shares, .changes, .quota, .emptyFolders,
            .permissions, .recursiveETags,
        ],
        digestAlgorithms: [.md5, .sha1, .sha256], modifiedTimePrecision: .milliseconds(1), shareKinds: [.publicLink, .user])

    /// Only the basic calls: list, stat, download, upload, create folders and delete.
    package static let basicCapabilities = Capabilities(features: [.emptyFolders], modifiedTimePrecision: .seconds(1))

    package let capabilities: Capabilities
    package let account: ProviderAccount
    /// The deliberate bugs switched on.
    package let defects: Defects
    let executor: RequestExecutor

    /// Creates a provider that sends its requests through `transport`, whose innermost transport
    /// must be an ``InMemoryServer``.
    ///
    /// - Parameters:
    ///   - transport: what the requests go through, an ``InMemoryServer`` at the bottom.
    ///   - capabilities: what the provider declares; ``fullCapabilities`` by default.
    ///   - defects: deliberate bugs to switch on; none by default.
    ///   - retry: when to retry; the default waits 10 ms to 80 ms between attempts and honours `Retry-After` up to a minute.
    package init(
        transport: any HTTPTransport, capabilities: Capabilities = InMemoryProvider.fullCapabilities, defects: Defects = [],
        retry: RetryPolicy = RetryPolicy(baseDelay: .milliseconds(10), maxDelay: .milliseconds(80))
    ) {
        self.capabilities = capabilities
        self.defects = defects
        self.account = ProviderAccount(kind: "memory", server: "http://\(InMemoryWire.host)")
        self.executor = RequestExecutor(transport: transport, retry: retry)
    }

    // MARK: Exchanges

    /// Sends a request and returns the response body of a successful answer.
    func exchange(
        _ method: HTTPMethod, _ path: ItemPath, headers: [(String, String)] = [], body: HTTPRequestBody? = nil,
        progress: ProgressHandler? = nil
    ) async throws -> ByteBuffer {
        var request = TransportRequest(method: method, url: try InMemoryWire.url(path), body: body, uploadProgress: progress)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await executor.execute(request)
        let buffer: ByteBuffer
        do {
            buffer = try await response.body.collect(upTo: 64 << 20)
        } catch {
            throw ProviderError.wrap(error, request: request.summary)
        }
        guard response.isSuccess else {
            throw InMemoryWire.error(for: response, body: buffer, request: request.summary)
        }
        return buffer
    }

    /// Sends a request and decodes its JSON answer.
    func call<Value: Decodable>(
        _ type: Value.Type, _ method: HTTPMethod, _ path: ItemPath, headers: [(String, String)] = [],
        body: HTTPRequestBody? = nil, progress: ProgressHandler? = nil
    ) async throws -> Value {
        let buffer = try await exchange(method, path, headers: headers, body: body, progress: progress)
        return try InMemoryWire.decodeJSON(type, from: buffer, request: "\(method.rawValue) \(path)")
    }

    /// `item` without the properties of undeclared features.
    func visible(_ item: Item) -> Item {
        var item = item
        let features = capabilities.features
        if !features.contains(.etags) { item.etag = nil }
        if !features.contains(.digests) { item.digests = [:] }
        item.digests = item.digests.filter { capabilities.digestAlgorithms.contains($0.key) }
        if !features.contains(.mimeTypes) { item.mimeType = nil }
        if !features.contains(.stableIDs) || defects.contains(.idsFollowPaths) { item.id = item.path.description }
        if !features.contains(.permissions) { item.permissions = nil }
        if defects.contains(.understatesPermissions), item.permissions != nil { item.permissions = .read }
        if capabilities.modifiedTimePrecision == nil { item.modified = nil }
        return item
    }

    /// Throws `.unsupported` unless `feature` is declared (after a stray request, with ``Defects/sendsRequestWhenUnsupported``).
    func require(_ feature: Capabilities.Features, _ what: String) async throws {
        guard !capabilities.supports(feature) else { return }
        if defects.contains(.sendsRequestWhenUnsupported) {
            _ = try? await exchange(.PROPFIND, .root, headers: [("Depth", "0")])
        }
        throw ProviderError.unsupported(what)
    }
}

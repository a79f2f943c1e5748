import Foundation
import Logging
import ProviderAPI
import ProviderKit
import HTTPProviderKit

/// A `StorageProvider` for the Nuxeo Platform: REST API v1 for documents, blobs, batch upload
/// and search, Automation for move, copy, trash and permissions.
///
/// Paths are display names below the provider's root document: a file is named by its
/// `dc:title`, a folder by its title, and identity is the uid (Nuxeo rewrites its own path
/// segments, so they are not what the user chose). Make one with ``connect(_:)``
/// to check the root and the credentials first; ``NuxeoProvider/Configuration`` holds the adapter's
/// settings, with their defaults and the string options that set them.
///
/// ```swift
/// let nuxeo = try await NuxeoProvider.connect(ProviderConfiguration(
///     url: URL(string: "https://demo.example.com/nuxeo/default-domain/workspaces/Reports")!,
///     credentials: .basic(username: "ann", password: secret),
///     options: ["auth": "token"]))
/// for item in try await nuxeo.listAll(.root) { print(item.name) }
/// ```
public struct NuxeoProvider: StorageProvider {
    public let capabilities: Capabilities
    public let account: ProviderAccount
    /// What the provider was configured with.
    package let settings: NuxeoProviderSettings
    /// The REST and Automation client, for calls beyond the contract.
    public let client: NuxeoClient
    /// The token authenticator, when the provider authenticates with a token.
    package let tokenAuthenticator: NuxeoTokenAuthenticator?
    /// The ceilings of page loops over this provider, its own paging included (from the configuration).
    public let pageLimits: PageLimits

    let resolver: NuxeoPathResolver
    let mapper: NuxeoItemMapper
    let logger: Logger
    /// Where chunked uploads keep their sessions for a resume (`ProviderServices.uploadCheckpoints`).
    let uploadCheckpoints: (any UploadCheckpoints)?
    let feedChoice = NuxeoFeedChoice()
    /// Pages of cursor listings asked for as soon as the page before them said they exist (see
    /// `list(_:page:)`).
    let listingPrefetch = PagePrefetch<ListingPageKey, NuxeoDocumentListPage>()

    /// A page of the children of a folder, as ``listingPrefetch`` keeps it.
    struct ListingPageKey: Hashable, Sendable {
        var parent: String
        var page: Int
        var pageSize: Int
    }

    /// What every Nuxeo server supports through this adapter.
    package static let standardCapabilities = Capabilities(
        features: [
            .paging, .rangeDownload, .resumeDownload, .preconditions, .move, .copy, .etags, .digests, .mimeTypes,
            .stableIDs, .search, .fullTextSearch, .shares, .changes, .emptyFolders, .permissions,
        ],
        digestAlgorithms: [.md5], modifiedTimePrecision: .milliseconds(1), shareKinds: [.user, .group, .email],
        names: NameRules(normalization: .preserved, maxNameBytes: 1024))

    /// Creates a provider from `configuration`, reading its string options as ``NuxeoProviderFactory``
    /// does (see ``NuxeoProvider/Configuration`` for the options).
    ///
    /// - Parameter configuration: the server URL, credentials, options and services.
    /// - Throws: `ProviderError.Code.invalidArgument` for a malformed URL, or an option that is malformed or unknown.
    public init(configuration: ProviderConfiguration) throws {
        try self.init(configuration: configuration, catalog: nil, entities: .standard)
    }

    /// Creates a provider from `configuration`, reading its string options, with another endpoint
    /// catalog (`NuxeoEndpoints.standard()` by default) or entity registry (tests, fuzz targets).
    package init(
        configuration: ProviderConfiguration, catalog: RequestTemplateCatalog? = nil, entities: NuxeoEntityRegistry = .standard
    ) throws {
        let (common, nuxeo) = try Self.reading(configuration)
        try self.init(configuration: common, nuxeo: nuxeo, catalog: catalog, entities: entities)
    }

    /// Creates a provider from what every adapter gets (`configuration`: URL, credentials, transport,
    /// retry, timeouts, page limits; its string options are not read) and the Nuxeo configuration.
    ///
    /// - Parameters:
    ///   - configuration: the server URL, credentials, transport, retry, timeouts and page limits.
    ///   - nuxeo: the Nuxeo settings (``NuxeoProvider/Configuration``), with their defaults.
    /// - Throws: `ProviderError.Code.invalidArgument` for a malformed URL.
    public init(configuration: ProviderConfiguration, nuxeo: Configuration) throws {
        try self.init(configuration: configuration, nuxeo: nuxeo, catalog: nil, entities: .standard)
    }

    /// Creates a provider from `configuration` (its string options not read) and the Nuxeo
    /// configuration, with another endpoint catalog or entity registry (tests, fuzz targets).
    package init(
        configuration: ProviderConfiguration, nuxeo: Configuration, catalog: RequestTemplateCatalog? = nil,
        entities: NuxeoEntityRegistry = .standard
    ) throws {
        let settings = try NuxeoProviderSettings(configuration, nuxeo: nuxeo)
        self.pageLimits = configuration.pageLimits
        let catalog = try catalog ?? NuxeoEndpoints.standard()
        let authenticator: any Authenticator
        var token: NuxeoTokenAuthenticator?
        let credentials = configuration.credentials
        if let user = credentials.username, let password = credentials.password {
            if settings.usesTokenAuthentication {
                let basic = RequestExecutor(
                    configuration: configuration, authenticator: BasicAuthenticator(username: user, password: password))
                let request = settings.tokenRequest
                let base = settings.baseURL
                token = NuxeoTokenAuthenticator(acquire: {
                    try await NuxeoClient.acquireToken(request, baseURL: base, executor: basic, catalog: catalog)
                })
            }
            authenticator = token ?? credentials.httpAuthenticator()
        } else if let value = credentials.token {
            token = NuxeoTokenAuthenticator(token: value, acquire: nil)
            authenticator = token ?? NoAuthenticator()
        } else {
            authenticator = configuration.httpAuthenticator()
        }
        let executor = RequestExecutor(configuration: configuration, authenticator: authenticator)
        let client = try NuxeoClient(
            baseURL: settings.baseURL, executor: executor, defaults: settings.defaults, catalog: catalog, entities: entities)
        let mapper = NuxeoItemMapper(prefersBlobFilename: false)
        self.settings = settings
        self.client = client
        self.tokenAuthenticator = token
        self.mapper = mapper
        self.logger = configuration.logger
        self.uploadCheckpoints = configuration.services.uploadCheckpoints
        self.capabilities = Self.standardCapabilities
        self.resolver = NuxeoPathResolver(client: client, mapper: mapper, rootPath: settings.rootPath)
        self.account = ProviderAccount(
            kind: "nuxeo", server: Redactor.redact(url: settings.baseURL), user: configuration.credentials.username,
            workspace: settings.defaults.repository + settings.rootPath)
    }

    /// Makes a provider and checks its root document and credentials with one request, reading
    /// `configuration`'s string options as ``NuxeoProviderFactory`` does.
    public static func connect(_ configuration: ProviderConfiguration) async throws -> NuxeoProvider {
        try await connect(configuration, catalog: nil, entities: .standard)
    }

    /// Makes a provider with a typed configuration (see ``init(configuration:nuxeo:)``) and checks
    /// its root document and credentials with one request.
    public static func connect(_ configuration: ProviderConfiguration, nuxeo: Configuration) async throws -> NuxeoProvider {
        try await connect(configuration, nuxeo: nuxeo, catalog: nil, entities: .standard)
    }

    /// ``connect(_:)`` with another endpoint catalog or entity registry (tests, fuzz targets).
    package static func connect(
        _ configuration: ProviderConfiguration, catalog: RequestTemplateCatalog? = nil, entities: NuxeoEntityRegistry = .standard
    ) async throws -> NuxeoProvider {
        let (common, nuxeo) = try reading(configuration)
        return try await connect(common, nuxeo: nuxeo, catalog: catalog, entities: entities)
    }

    /// ``connect(_:nuxeo:)`` with another endpoint catalog or entity registry (tests, fuzz targets).
    package static func connect(
        _ configuration: ProviderConfiguration, nuxeo: Configuration, catalog: RequestTemplateCatalog? = nil,
        entities: NuxeoEntityRegistry = .standard
    ) async throws -> NuxeoProvider {
        let provider = try NuxeoProvider(configuration: configuration, nuxeo: nuxeo, catalog: catalog, entities: entities)
        let root = try await provider.client.document(path: provider.settings.rootPath)
        guard root.isFolderish else {
            throw ProviderError(.invalidArgument, "the root \(provider.settings.rootPath) is a \(root.type ?? "document"), not a folder")
        }
        await provider.resolver.adoptRoot(uid: root.uid)
        return provider
    }

    // MARK: Metadata

    public func item(at path: ItemPath) async throws -> Item {
        let document = try await resolver.document(at: path, enrichers: ["permissions"])
        let item = mapper.item(from: document, at: path)
        // A download that follows reads the blob by uid, checked against this.
        await resolver.note(document, as: item)
        return item
    }

    public func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        let pageSize = listingPageSize(page)
        var index = 0
        if let cursor = page.cursor { index = try ListingCursor.read(cursor, scope: folder.description).number() }
        let client = self.client
        let prefetch = listingPrefetch
        /// Page `index` of the children of `parent`: the one fetched ahead for it, else asked for now.
        let pageOf: @Sendable (String, Int) async throws -> NuxeoDocumentListPage = { parent, index in
            if let page = await prefetch.take(ListingPageKey(parent: parent, page: index, pageSize: pageSize)) { return page }
            return try await client.childrenPage(of: parent, page: index, pageSize: pageSize)
        }
        /// The first page asked for, when it is asked for before the folder is checked again.
        var early: Task<NuxeoDocumentListPage, any Error>?
        defer { early?.cancel() }
        let parent: String
        if page.cursor != nil, !folder.isRoot, let known = await resolver.cachedFolderUid(folder) {
            // A page after the first: the folder is checked again (it may have been replaced since
            // the page before) while the page is asked for from the folder it was, so that a page
            // costs one round trip, not two; a folder replaced since is listed anew.
            let started = Task { [index] in try await pageOf(known, index) }
            early = started
            parent = try await folderUid(folder)
            if parent != known {
                started.cancel()
                early = nil
            }
        } else {
            parent = try await folderUid(folder)
        }
        let firstPage = early
        let firstIndex = index
        var items: [Item] = []
        var totalCount: Int?
        /// Whether every page so far declared a count that its entries matched.
        var counted = true
        var first = true
        // Only the pages fetched here: the caller's own loop guards the pages it asks for by cursor.
        var pages = PageGuard.listing(of: folder, limits: pageLimits)
        // Without a limit every page is fetched here, one ahead: page n + 1 is asked for as soon as
        // page n arrives (its paging is read from a skim of its body) and is on its way while page n
        // is decoded and mapped.
        func lookahead(from first: Int) -> PageLookahead<Int, (index: Int, page: NuxeoDocumentListPage)> {
            PageLookahead(
                first: first,
                fetch: { index in
                    if index == firstIndex, let firstPage {
                        let page = try await withTaskCancellationHandler {
                            try await firstPage.value
                        } onCancel: {
                            firstPage.cancel()
                        }
                        return (index, page)
                    }
                    return (index, try await pageOf(parent, index))
                },
                following: { page.limit == nil && $0.page.paging.hasNextPage && $0.index < Int.max ? $0.index + 1 : nil },
                predict: { index, previous in
                    Self.pageMayExist(after: index, total: previous.page.paging.knownResultsCount, pageSize: pageSize) ? index + 1 : nil
                })
        }
        var wire = lookahead(from: index)
        defer { wire.cancel() }
        let mapper = self.mapper
        while let wirePage = try await wire.next() {
            // A listing by cursor returns this page alone: when the server says another follows
            // but not how many (`resultsCount: -2`, so that no caller can predict it, see
            // pageRequest(after:in:previous:)), it is asked for now, to be on its way while this one
            // is decoded and the caller takes it in; the call for the next cursor takes it over.
            if page.limit != nil, wirePage.page.paging.hasNextPage, wirePage.page.paging.knownResultsCount == nil,
                wirePage.index < Int.max
            {
                let next = wirePage.index + 1
                prefetch.start(ListingPageKey(parent: parent, page: next, pageSize: pageSize)) {
                    try await client.childrenPage(of: parent, page: next, pageSize: pageSize)
                }
            }
            // Decoded and mapped off the event loops, which meanwhile send and receive the next page.
            let (list, mapped) = try await OffEventLoop.run { () throws -> (NuxeoDocumentList, [Item]) in
                let list = try wirePage.page.list()
                var mapped: [Item] = []
                mapped.reserveCapacity(list.entries.count)
                for document in list.entries {
                    mapped.append(mapper.item(from: document, at: try folder.appending(serverName: mapper.displayName(of: document))))
                }
                return (list, mapped)
            }
            index = wirePage.index
            // A page that contradicts itself (a count it does not send, a short page that says
            // more follow) is not taken as the end of the folder: the listing fails instead.
            let paging = list.paging
            if let contradiction = paging.contradiction(atPage: index) {
                throw ProviderError(.invalidResponse, "the listing of \(folder) is not consistent: \(contradiction)")
            }
            if first { totalCount = list.knownResultsCount }
            if paging.knownResultsCount == nil { counted = false }
            first = false
            let more = list.hasNextPage
            let entries = list.entries
            try pages.admit(keys: entries.indices.lazy.map { entries[$0].uid }, hasMore: more)
            let start = items.endIndex
            if items.isEmpty { items = mapped } else { items += mapped }
            // The paths just made, not made again.
            await resolver.remember(children: list.entries, as: items[start...])
            guard more else { return ItemPage(items: items, totalCount: totalCount, completeness: counted ? .counted : .ended) }
            guard index < Int.max else { throw ProviderError(.invalidResponse, "the listing of \(folder) has too many pages") }
            if page.limit != nil {
                return ItemPage(
                    items: items, next: ListingCursor(number: index + 1, scope: folder.description).cursor, totalCount: totalCount,
                    completeness: counted ? .counted : .ended)
            }
            // No limit: the caller wants everything, page after page, of the folder resolved once.
            // The decoded page goes by what an app's own `documents` decoder made of it: when it
            // says more than the skim did, the listing goes on from the next page.
            if !wirePage.page.paging.hasNextPage {
                wire.cancel()
                wire = lookahead(from: index + 1)
            }
        }
        return ItemPage(items: items, totalCount: totalCount, completeness: counted && !first ? .counted : .ended)
    }

    /// The next page of a listing by cursor is the next page number (see ``list(_:page:)``),
    /// when the count of the page before says it exists. Without a count (`resultsCount: -2`, a
    /// folder larger than a page) none is predicted: a guess would cost a request past the end.
    public func pageRequest(after request: PageRequest, in folder: ItemPath, previous: ItemPage) -> PageRequest? {
        guard request.limit != nil, let cursor = request.cursor, let position = ListingCursor(cursor, scope: folder.description),
            let number = try? position.number(),
            Self.pageMayExist(after: number, total: previous.totalCount, pageSize: listingPageSize(request))
        else { return nil }
        var next = request
        next.cursor = ListingCursor(number: number + 1, scope: position.scope).cursor
        return next
    }

    /// The server page size of a listing request: its limit (the settings' page size without
    /// one), between 1 and 1,000.
    func listingPageSize(_ request: PageRequest) -> Int {
        max(1, min(request.limit ?? settings.pageSize, 1000))
    }

    /// Whether the page after page `index` exists, judging by `total`, the results the server
    /// counted on a page before it: only when it counted them and they go past page `index` (no
    /// request is ever sent past the end on a guess).
    static func pageMayExist(after index: Int, total: Int?, pageSize: Int) -> Bool {
        guard index < Int.max - 1, let total else { return false }
        let (end, overflow) = (index + 1).multipliedReportingOverflow(by: pageSize)
        return !overflow && end < total
    }

    /// The uid of the folder at `path`; ``ProviderError/Code/invalidArgument`` when it is a file.
    func folderUid(_ path: ItemPath) async throws -> String {
        if path.isRoot { return try await resolver.root() }
        let document = try await resolver.document(at: path)
        guard document.isFolderish else { throw ProviderError(.invalidArgument, "\(path) is a file, not a folder") }
        return document.uid
    }
}


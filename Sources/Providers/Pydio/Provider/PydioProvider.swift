import Foundation
import Logging
import ProviderAPI
import ProviderKit

/// A `StorageProvider` for Pydio 5–8 (pydio-core) through its `index.php?get_action=` API.
///
/// Answers are read through chains of response recognizers; the session signs in lazily and again
/// when it expires. A provider is bound to one workspace, named by id or slug
/// in its URL. Paths are Pydio's own (a node's `filename`), below the provider's root folder.
///
/// ```swift
/// let pydio = try await PydioProvider.connect(ProviderConfiguration(
///     url: URL(string: "https://files.example.com/pydio/my-files")!,
///     credentials: .basic(username: "ann", password: secret)))
/// for item in try await pydio.listAll(.root) { print(item.name) }
/// ```
public struct PydioProvider: StorageProvider {
    public let capabilities: Capabilities
    public let account: ProviderAccount
    /// What the provider was configured with.
    package let settings: PydioProviderSettings
    /// The signed-in session, for calls beyond the contract.
    package let session: PydioSession
    /// The ceilings of page loops over this provider, its own paging included (from the configuration).
    public let pageLimits: PageLimits
    let logger: Logger
    /// Where chunked uploads keep their sessions for a resume (`ProviderServices.uploadCheckpoints`).
    let uploadCheckpoints: (any UploadCheckpoints)?
    /// The files the last listings described, for the download that follows (one request, not two).
    let listedFiles = PydioListedFiles()

    /// What Pydio supports through this adapter: no etags, digests or preconditions; names
    /// without `? " | \`, a leading space or a leading dot, stored in NFC, and case-sensitive (the
    /// server looks paths up byte for byte on its disk: `A.txt` and `a.txt` are two files). Search by name only:
    /// full text is added when ``Configuration/indexesContent`` says the workspace indexes contents
    /// (nothing in the server's registry tells; a stock "My Files" does not, recording 60).
    package static let standardCapabilities = Capabilities(
        features: [.rangeDownload, .resumeDownload, .move, .copy, .mimeTypes, .search, .shares, .emptyFolders, .permissions],
        modifiedTimePrecision: .seconds(1), shareKinds: [.publicLink], shareExpiryGranularity: .seconds(86_400),
        names: NameRules(
            forbiddenCharacters: ["?", "\"", "|", "\\"], allowsLeadingSpace: false, allowsDotFiles: false,
            normalization: .nfc, caseSensitive: true, maxNameBytes: 255))

    /// Creates a provider, reading `configuration`'s string options as ``PydioProviderFactory`` does
    /// (see ``PydioProvider/Configuration``); nothing is sent until the first call.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a malformed URL, an option that is
    ///   malformed or unknown, or credentials that are not a user name and password.
    public init(configuration: ProviderConfiguration) throws {
        let (common, pydio) = try Self.reading(configuration)
        try self.init(configuration: common, pydio: pydio)
    }

    /// Creates a provider from what every adapter gets (`configuration`: URL, credentials, transport,
    /// retry, timeouts, page limits; its string options are not read) and the Pydio configuration;
    /// nothing is sent until the first call.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a malformed URL, or credentials that are
    ///   not a user name and password.
    public init(configuration: ProviderConfiguration, pydio: Configuration) throws {
        let settings = try PydioProviderSettings(configuration, pydio: pydio)
        let limits = configuration.pageLimits
        guard let user = configuration.credentials.username, let password = configuration.credentials.password else {
            throw ProviderError(.invalidArgument, "Pydio signs in with a user name and password")
        }
        self.init(settings: settings, user: user, password: password, configuration: configuration, pageLimits: limits)
    }

    private init(
        settings: PydioProviderSettings, user: String, password: String, configuration: ProviderConfiguration, pageLimits: PageLimits
    ) {
        self.settings = settings
        self.pageLimits = pageLimits
        self.session = PydioSession(base: settings.baseURL, username: user, password: password, configuration: configuration)
        self.logger = configuration.logger
        self.uploadCheckpoints = configuration.services.uploadCheckpoints
        var capabilities = Self.standardCapabilities
        if settings.indexesContent { capabilities.features.insert(.fullTextSearch) }
        self.capabilities = capabilities
        self.account = ProviderAccount(
            kind: "pydio", server: Redactor.redact(url: settings.baseURL), user: user,
            workspace: settings.workspace + settings.rootPath)
    }

    /// Makes a provider, signs in and checks that the workspace and root folder exist, reading
    /// `configuration`'s string options as ``PydioProviderFactory`` does.
    public static func connect(_ configuration: ProviderConfiguration) async throws -> PydioProvider {
        let (common, pydio) = try reading(configuration)
        return try await connect(common, pydio: pydio)
    }

    /// Makes a provider with a typed configuration (see ``init(configuration:pydio:)``), signs in
    /// and checks that the workspace and root folder exist.
    public static func connect(_ configuration: ProviderConfiguration, pydio: Configuration) async throws -> PydioProvider {
        let provider = try PydioProvider(configuration: configuration, pydio: pydio)
        let workspaces = try await provider.workspaces()
        guard workspaces.contains(where: { $0.matches(provider.settings.workspace) }) else {
            throw ProviderError(.notFound, "no workspace \(provider.settings.workspace) for this user")
        }
        let root = try await provider.item(at: .root)
        guard root.kind == .folder else { throw ProviderError(.invalidArgument, "the root \(provider.settings.rootPath) is a file") }
        return provider
    }

    /// The workspaces the user can open (file workspaces only).
    public func workspaces() async throws -> [PydioWorkspace] {
        try await session.call(
            "get_xml_registry", [("xPath", "user/repositories")], chain: PydioRecognizers.chain(PydioRecognizers.workspaces)
        ).filter(\.holdsFiles)
    }

    // MARK: Paths

    /// The Pydio path of `path`, as the server spells it (``wire(_:)``).
    func remote(_ path: ItemPath) -> String {
        let base = settings.rootPath == "/" ? "" : settings.rootPath
        return Self.wire(path.isRoot ? (base.isEmpty ? "/" : base) : base + path.description)
    }

    /// The one normalisation of every path and name the adapter sends: precomposed (NFC).
    ///
    /// The server stores an uploaded name precomposed but keeps a folder name, and looks a path
    /// up, byte for byte as sent (recordings 49–53): a decomposed path finds nothing, and a
    /// decomposed folder name would make a second folder that looks like the first. Sending
    /// everything precomposed keeps one spelling, the one the capabilities promise.
    static func wire(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping
    }

    /// The provider path of a Pydio path, or `nil` when it is outside the root.
    func local(_ remotePath: String) -> ItemPath? {
        let base = settings.rootPath == "/" ? "" : settings.rootPath
        guard remotePath == base || remotePath.hasPrefix(base + "/") || base.isEmpty else { return nil }
        let rest = remotePath.dropFirst(base.count)
        return try? ItemPath(String(rest.isEmpty ? "/" : rest))
    }

    /// Parameters naming the workspace, then `extra`.
    func parameters(_ extra: [(String, String)]) -> [(String, String)] {
        [("tmp_repository_id", settings.workspace)] + extra
    }

    func item(_ node: PydioNode, at path: ItemPath) -> Item {
        Item(
            id: node.path, path: path, kind: node.isFile ? .file : .folder, size: node.isFile ? node.size : nil,
            modified: node.modified, etag: nil, mimeType: node.isFile ? MIMETypes.guess(node.storedName) : nil,
            permissions: node.itemPermissions, properties: node.attributes)
    }

    // MARK: Metadata

    public func item(at path: ItemPath) async throws -> Item {
        if path.isRoot {
            let listing = try await ls(remote(path), page: nil)
            guard let folder = listing.folder else { throw ProviderError(.invalidResponse, "the listing of the root names no folder") }
            return item(folder, at: path)
        }
        guard let node = try await node(at: path) else { throw ProviderError(.notFound, "\(path) not found") }
        // The server's own spelling (it stores names in NFC).
        return item(node, at: local(node.path) ?? path)
    }

    /// The node at `path`, or `nil` when there is none (`ls` of a selection).
    func node(at path: ItemPath) async throws -> PydioNode? {
        let target = remote(path)
        let listing = try await session.call(
            "ls", parameters([("options", "al"), ("file", target)]), chain: PydioRecognizers.chain(PydioRecognizers.listing))
        return listing.children.first { $0.path.unicodeScalars.elementsEqual(target.unicodeScalars) } ?? listing.children.first
    }

    public func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        var number: Int?
        if let cursor = page.cursor { number = try ListingCursor.read(cursor, scope: folder.description).number() }
        var items: [Item] = []
        var listing: PydioListing?
        /// The children the pages sent (a hidden recycle bin among them) and the count the first declared.
        var received = 0
        var declared: Int?
        var pageCount = 0
        var hidden = false
        // Only the pages fetched here: the caller's own loop guards the pages it asks for by cursor.
        var pages = PageGuard.listing(of: folder, limits: pageLimits)
        // Without a limit every page is fetched here, one ahead: page n + 1 is on its way while
        // page n is read (the `<pagination>` of the page before tells whether it exists).
        let remotePath = remote(folder)
        let wire = PageLookahead<Int?, PydioListing>(
            first: number,
            fetch: { [self] number in try await ls(remotePath, page: number) },
            following: { (listing: PydioListing) -> Int?? in
                guard page.limit == nil, listing.hasNextPage else { return .none }
                return .some((listing.page?.current ?? 1) + 1)
            },
            predict: { (number: Int?, previous: PydioListing) -> Int?? in
                guard let number, let total = previous.page?.total, number < total else { return .none }
                return .some(number + 1)
            })
        defer { wire.cancel() }
        while true {
            let current: PydioListing
            do {
                guard let next = try await wire.next() else { break }
                current = next
            } catch let error as ProviderError where error.code == .notFound && !folder.isRoot {
                if let node = try? await node(at: folder), node.isFile {
                    throw ProviderError(.invalidArgument, "\(folder) is a file, not a folder")
                }
                throw error
            }
            listing = current
            if current.folder?.isFile == true { throw ProviderError(.invalidArgument, "\(folder) is a file, not a folder") }
            // The next page number, as the server counts: a server that names the same page again is caught as a repeated cursor.
            let following = (current.page?.current ?? 1) + 1
            let children = current.children
            if let position = current.page {
                pageCount += 1
                if pageCount == 1 { declared = current.declaredCount }
                if position.total > 0, position.current > position.total {
                    throw ProviderError(
                        .invalidResponse, "the listing of \(folder) is not consistent: page \(position.current) of \(position.total) pages")
                }
            }
            received += children.count
            try pages.admit(
                keys: children.indices.lazy.map { children[$0].path }, cursor: current.hasNextPage ? PageCursor(String(following)) : nil,
                hasMore: current.hasNextPage)
            for child in current.children {
                if child.isRecycleBin, !settings.showsRecycleBin {
                    hidden = true
                    continue
                }
                items.append(item(child, at: try folder.appending(serverName: child.storedName)))
            }
            number = following
        }
        await listedFiles.note(items)
        let more = listing?.hasNextPage ?? false
        let next = page.limit != nil && more ? ListingCursor(number: number ?? 2, scope: folder.description).cursor : nil
        if page.limit == nil {
            // Every page was read here: the children they sent must be the count the first declared
            // (`<pagination count>`), else the listing ended early or the server miscounts.
            if let declared, received != declared {
                throw ProviderError(
                    .invalidResponse,
                    "the listing of \(folder) is not consistent: its first page declared \(declared) children but its pages sent \(received)")
            }
            return ItemPage(items: items, totalCount: items.count, completeness: declared == nil ? .ended : .counted)
        }
        // The declared count holds the recycle bin, which may be left out of the items (at the root,
        // on the last page): no count is given where one may be hidden.
        let hidesBin = !settings.showsRecycleBin
            && (hidden || (listing?.folder?.attributes["repo_has_recycle"]).map { !$0.isEmpty && $0 != "false" } ?? false)
        let count = hidesBin ? nil : listing?.declaredCount
        return ItemPage(items: items, next: next, totalCount: count, completeness: count == nil ? .ended : .counted)
    }

    /// The next page of a listing by cursor is the next page number (see ``list(_:page:)``), unless
    /// the `<pagination>` of the page before says that page is past the end.
    public func pageRequest(after request: PageRequest, in folder: ItemPath, previous: ItemPage) -> PageRequest? {
        guard request.limit != nil, let cursor = request.cursor else { return nil }
        guard let position = ListingCursor(cursor, scope: folder.description), let number = try? position.number(), number >= 1, number < Int.max
        else { return nil }
        // The server's own page size, as the page before shows it, tells whether `number` is the last page.
        if let total = previous.totalCount, previous.items.count > 0 {
            let (end, overflow) = number.multipliedReportingOverflow(by: previous.items.count)
            if !overflow, end >= total { return nil }
        }
        var next = request
        next.cursor = ListingCursor(number: number + 1, scope: folder.description).cursor
        return next
    }

    /// One `ls` page of `remotePath`: the literal text `%23<page>` after the folder selects a page of a
    /// paginated folder (on the wire the `%` itself is encoded: `dir=%2Fbig%25232`).
    func ls(_ remotePath: String, page: Int?) async throws -> PydioListing {
        let dir = page.map { "\(remotePath)%23\($0)" } ?? remotePath
        return try await session.call(
            "ls", parameters([("dir", dir), ("options", "al")]), chain: PydioRecognizers.chain(PydioRecognizers.listing))
    }
}

import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderKit
import HTTPProviderKit

/// A `StorageProvider` for RFC 4918 WebDAV servers: Apache mod_dav, sabre/dav,
/// nginx, wsgidav, lighttpd, rclone serve and the WebDAV side of ownCloud and Nextcloud.
///
/// Listings use `PROPFIND` asking only for the properties Strata maps, parsed
/// with a hardened SAX parser; transfers stream both ways; paths are mapped
/// to hrefs and back whatever the server's escaping. Make one with
/// ``connect(_:)`` to have its ``capabilities`` probed from the server, or
/// with ``init(configuration:)`` to take those of every RFC 4918 class 1 server. ``WebDAVProvider/Configuration``
/// holds the settings of the ownCloud/Nextcloud dialect, each with its default and its option.
///
/// ```swift
/// let dav = try await WebDAVProvider.connect(ProviderConfiguration(
///     url: URL(string: "https://dav.example.com/files/")!,
///     credentials: .basic(username: "ann", password: secret)))
/// let items = try await dav.listAll("/Reports")
/// ```
public struct WebDAVProvider: StorageProvider {
    /// What this provider supports on this server: what was verified where known (the server's
    /// behaviour is verified beside the first write), so it can grow or shrink after it.
    public var capabilities: Capabilities {
        let profile = profile
        return dialect?.capabilities(over: profile.capabilities) ?? profile.capabilities
    }
    public let account: ProviderAccount
    /// What the probe learnt about the server, and what was verified by writing on it.
    package var profile: WebDAVServerProfile {
        guard let verification else { return probed }
        var profile = probed
        profile.verified = verification.verdict
        return profile
    }
    /// The ownCloud/Nextcloud dialect, when the server speaks it; `nil` for plain RFC 4918.
    package let dialect: WebDAVDialect?
    /// The ceilings of page loops over this provider (from the configuration).
    public let pageLimits: PageLimits

    let mapper: DAVPathMapper
    let executor: RequestExecutor
    let snapshots: SnapshotPager
    /// Folders seen to exist, checked before an upload into them (see ``requireFolder(_:)``).
    let knownFolders = KnownFolders()
    /// Folders this provider made, empty, and the names written into them since (see ``FreshFolders``).
    let freshFolders = FreshFolders()
    let logger: Logger
    /// Where chunked uploads keep their sessions for a resume (`ProviderServices.uploadCheckpoints`).
    let uploadCheckpoints: (any UploadCheckpoints)?
    /// What ``connect(_:)`` learnt before any write (or took from an earlier process: ``keptProfile``).
    var probed: WebDAVServerProfile { probedBox.withLockedValue { $0 } }
    let probedBox: NIOLockedValueBox<WebDAVServerProfile>
    /// Set when the profile was kept by an earlier process instead of probed: the server's name
    /// is confirmed with one `OPTIONS` before the first write (``confirmKeptProfile()``).
    let keptProfile: WebDAVKeptProfile.Confirmation?
    /// The verdicts of ``WebDAVCapabilityVerifier``, when the profile asks for verification.
    let verification: WebDAVVerificationState?
    /// Where the verdict on `Depth: infinity` is kept with the profile (``listTree(_:fields:maxEntries:)``).
    let treeVerdictStore: (store: (any ServerFactStore)?, user: String?)

    /// A provider rooted at `configuration.url`, without asking the server anything: it declares
    /// what every RFC 4918 class 1 server has (``connect(_:)`` probes the server first).
    ///
    /// `configuration`'s string options are read as the factories read them (see
    /// ``WebDAVProvider/Configuration``).
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a malformed URL, or an option that is malformed or unknown.
    public init(configuration: ProviderConfiguration) throws {
        try self.init(configuration: configuration, profile: .generic, dialect: nil)
    }

    /// A provider rooted at `configuration.url` with the given server profile (by default what
    /// every RFC 4918 class 1 server has) and dialect; with a `dialect` given, the dialect options
    /// are already in `configuration`.
    ///
    /// `authenticator` signs every request; `nil` makes one from the configuration's credentials and
    /// `auth` option (``Configuration/auth``). ``connect(_:webdav:)`` passes the one its probe
    /// used, so that what it learnt (the server wants Digest, and its nonce) carries over.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a malformed URL, or an option that is malformed or unknown.
    package init(
        configuration: ProviderConfiguration, profile: WebDAVServerProfile = .generic, dialect: WebDAVDialect? = nil,
        authenticator: (any Authenticator)? = nil, kept: Bool = false
    ) throws {
        let (configuration, webdav) = try Self.reading(configuration)
        self.mapper = try DAVPathMapper(root: configuration.url)
        self.pageLimits = configuration.pageLimits
        self.probedBox = NIOLockedValueBox(profile)
        self.keptProfile = kept ? WebDAVKeptProfile.Confirmation(store: configuration.serverFacts, user: configuration.credentials.username) : nil
        self.dialect = dialect
        self.treeVerdictStore = (configuration.serverFacts, configuration.credentials.username)
        self.logger = configuration.logger
        self.uploadCheckpoints = configuration.services.uploadCheckpoints
        self.executor = RequestExecutor(
            configuration: configuration, authenticator: try authenticator ?? webdav.authenticator(for: configuration))
        self.snapshots = SnapshotPager()
        if profile.verifiesOnFirstWrite {
            var origin = URLComponents(url: mapper.root, resolvingAgainstBaseURL: false)
            origin?.path = "/"
            origin?.user = nil
            origin?.password = nil
            origin?.query = nil
            origin?.fragment = nil
            let subject = WebDAVVerificationState.Subject(
                server: origin?.string ?? Redactor.redact(url: mapper.root), user: configuration.credentials.username ?? "",
                serverHeader: profile.server)
            self.verification = WebDAVVerificationState(
                subject: subject, declared: profile.verified, store: configuration.serverFacts)
        } else {
            self.verification = nil
        }
        self.account = ProviderAccount(
            kind: dialect?.flavor.rawValue ?? "webdav", server: Redactor.redact(url: mapper.root),
            user: dialect?.user ?? configuration.credentials.username)
    }

    /// Makes a provider after probing the server (`OPTIONS` and a `PROPFIND` of the root)
    /// so that its ``capabilities`` say what this server really does.
    ///
    /// A profile probed by an earlier process and kept in `ProviderConfiguration.serverFacts`
    /// (for a day, for the same root and user) is taken instead, without a request; the server's
    /// name is then confirmed with one `OPTIONS` before the first write.
    ///
    /// A verdict of the capability verifier kept in `ProviderConfiguration.serverFacts` by
    /// an earlier process is taken at once while it is trusted (a day, and only while the server
    /// sends the same `Server` header); otherwise the first write verifies again.
    ///
    /// `configuration`'s string options are read as ``WebDAVProviderFactory`` reads them, and the
    /// `dialect` option speaks the ownCloud/Nextcloud dialect (``connect(_:webdav:)``).
    public static func connect(_ configuration: ProviderConfiguration) async throws -> WebDAVProvider {
        let (common, webdav) = try reading(configuration)
        return try await connect(common, webdav: webdav)
    }

    /// Makes a provider with a typed configuration after probing the server: plain WebDAV, or the
    /// ownCloud/Nextcloud dialect when ``Configuration/dialect`` names one (as
    /// ``OwnCloudProviderFactory`` does). `configuration`'s string options are not read.
    public static func connect(_ configuration: ProviderConfiguration, webdav: Configuration) async throws -> WebDAVProvider {
        var configuration = configuration
        configuration.options = [:]
        if let flavor = webdav.dialect {
            return try await OwnCloudProviderFactory.connect(configuration, webdav: webdav, flavor: flavor)
        }
        let authenticator = try await webdav.authenticator(connecting: configuration)
        let generic = try WebDAVProvider(configuration: configuration, authenticator: authenticator)
        // A profile an earlier process probed (and still trusted) spares the OPTIONS and PROPFIND:
        // a read is then one request; the first write confirms the server's name first.
        if let kept = await WebDAVKeptProfile.load(from: configuration.serverFacts, root: generic.mapper.root, user: configuration.credentials.username) {
            let provider = try WebDAVProvider(configuration: configuration, profile: kept, authenticator: authenticator, kept: true)
            await provider.verification?.loadRemembered()
            return provider
        }
        let profile = try await generic.probeProfile()
        await WebDAVKeptProfile.keep(profile, in: configuration.serverFacts, root: generic.mapper.root, user: configuration.credentials.username)
        let provider = try WebDAVProvider(configuration: configuration, profile: profile, authenticator: authenticator)
        await provider.verification?.loadRemembered()
        return provider
    }

    /// Verifies the server's behaviour now, in the nearest existing folder at or above `path`,
    /// unless it is known already: for a caller that plans writes from ``capabilities`` (the
    /// names a transfer maps) before its first write. A server where nothing can be written keeps
    /// its conservative guesses.
    public func verifyCapabilities(near path: ItemPath) async {
        // A kept profile is confirmed first: a server that changed is verified again below.
        await confirmKeptProfile()
        guard let verification, !verification.isSettled else { return }
        var folder = path
        while !folder.isRoot {
            if let existing = try? await itemIfExists(at: folder), existing.kind == .folder { break }
            folder = folder.parent
        }
        await verifyBeforeWrite(in: folder)
    }

    /// Verifies the server's behaviour beside a write into `folder`, once (see ``WebDAVCapabilityVerifier``).
    /// Fails with `.notFound` unless `folder` exists (`.conflict` when it is a file): a `PUT`
    /// into a missing folder must not be left to the server, some of which create the missing
    /// parents (copyparty) where RFC 4918 9.7.1 requires a 409. Checked once per folder until the
    /// next delete or move.
    func requireFolder(_ folder: ItemPath) async throws {
        if folder.isRoot || knownFolders.contains(folder) { return }
        guard let existing = try await itemIfExists(at: folder) else {
            throw ProviderError(.notFound, "the folder \(folder) does not exist")
        }
        guard existing.kind == .folder else { throw ProviderError(.conflict, "\(folder) is a file, not a folder") }
        knownFolders.insert(folder)
    }

    func verifyBeforeWrite(in folder: ItemPath) async {
        await confirmKeptProfile()
        guard let verification else { return }
        let provider = self
        await verification.ensure { await WebDAVCapabilityVerifier(provider: provider).verify(in: folder) }
    }

    // MARK: Metadata

    public func item(at path: ItemPath) async throws -> Item {
        let responses = try await propfind(path, depth: "0", body: propfindItemsBody)
        guard let first = responses.first else {
            throw ProviderError(.invalidResponse, "PROPFIND of \(path) answered no response")
        }
        return try makeItem(first, expected: path)
    }

    public func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        // One PROPFIND for every page: the listing is kept as a snapshot the pages are cut from.
        let provider = self
        return try await snapshots.page(page, scope: folder.description) {
            try await provider.fetchListing(folder, fields: page.fields)
        }
    }

    /// All children of `folder` from one `Depth: 1` PROPFIND, sorted by name (``fetchListing(_:fields:)``).
    func fetchChildren(_ folder: ItemPath, fields: ItemFields = .all) async throws -> [Item] {
        try await fetchListing(folder, fields: fields).items
    }

    /// All children of `folder` from one `Depth: 1` PROPFIND, sorted by name, and whether that is
    /// every child: ``ListingCompleteness/partial`` when the server named a child with an error
    /// status of its own (it is there, but not described, so it is left out) or by an href with a
    /// raw `?` or `#` (it is there, but its name is not known: left out too), else
    /// ``ListingCompleteness/ended`` (a multistatus cut short is refused by the parser).
    ///
    /// Each response becomes an item as soon as it is parsed, so no response outlives its item;
    /// in a large listing the items are made on another core while the parse goes on
    /// (`OverlappedMapper`), with the errors an entry raises in document order.
    func fetchListing(_ folder: ItemPath, fields: ItemFields = .all) async throws -> SnapshotPager.Listing {
        var children: [Item] = []
        var count = 0
        var undescribed = 0
        let dropped = NIOLockedValueBox(0)
        var mapped = OverlappedMapper { [self] (entry: DAVListingEntry) in try child(entry, of: folder, dropped: dropped) }
        do {
            // Without a dialect, items need only the DAV: properties: they are read as they stream.
            count = try await propfind(
                folder, depth: "1", body: propfindItemsBody(fields), folder: true, itemFields: dialect == nil,
                each: { entry in
                    if let status = entry.status, !(200..<300).contains(status) {
                        undescribed += 1
                    } else if DAVPathMapper.hasRawQueryOrFragment(entry.href) {
                        // `child(_:of:)` leaves it out (the folder's own entry with one only makes the
                        // listing partial: the safe side).
                        undescribed += 1
                    }
                    try mapped.add(entry)
                }, settle: { children = try await mapped.finish() })
        } catch let failure as ProviderError where [400, 403, 404, 405, 409].contains(failure.httpStatus ?? 0) && !folder.isRoot {
            // Apache answers 400 and lighttpd 403 to a collection URL naming a file: say what really is there.
            if let existing = try await itemIfExists(at: folder), existing.kind == .file {
                throw ProviderError(.invalidArgument, "\(folder) is a file, not a folder", request: failure.request)
            }
            if failure.httpStatus == 403 { throw failure }
            throw failure.code == .notFound ? failure : ProviderError(.notFound, "\(folder) not found", request: failure.request)
        }
        if count == 0 {
            throw ProviderError(.invalidResponse, "the listing of \(folder) answered no response")
        }
        Self.sortByName(&children)
        // The folder's own entry with an error status is an error (`child(_:of:)`): what is counted here are children.
        // An entry dropped for its unusable href is a child the listing cannot name: not complete.
        let unnamed = dropped.withLockedValue { $0 }
        if unnamed > 0 { logger.warning("the listing of \(folder) dropped \(unnamed) entries without a usable href") }
        return SnapshotPager.Listing(items: children, completeness: undescribed + unnamed > 0 ? .partial : .ended)
    }

    /// The item of a listing entry of `folder`: `nil` for the folder itself (which must be one) and
    /// for a child the server answered with an error status; an error for anything not a child.
    ///
    /// An entry whose href is empty or not a path (chezdav) is named by its `displayname` when
    /// that is a valid single name, else dropped and counted in `dropped`; an href naming
    /// another host or leaving the root still fails the listing.
    private func child(_ entry: DAVListingEntry, of folder: ItemPath, dropped: NIOLockedValueBox<Int>) throws -> Item? {
        var path: ItemPath
        do {
            path = try mapper.path(forHref: entry.href)
        } catch let failure as ProviderError where failure.code == .invalidResponse && Self.isUnusable(href: entry.href) {
            guard let name = entry.found.first(where: { $0.name == .displayname })?.value.text,
                (try? ItemPath.validate(name: name)) != nil, let named = try? folder.appending(name)
            else {
                dropped.withLockedValue { $0 += 1 }
                return nil
            }
            path = named
        }
        // The folder itself, in the server's spelling or the caller's (a server that stores NFC
        // answers a request for an NFD name with the NFC href).
        if path == folder || (path.depth == folder.depth && path.segments == folder.segments) {
            let selfItem = try makeItem(entry, expected: folder)
            if selfItem.kind != .folder {
                throw ProviderError(.invalidArgument, "\(folder) is a file, not a folder")
            }
            return nil
        }
        // A raw `?` or `#` in a child's href: cut there it names another item (`p` for `p?q.txt`),
        // so the child is left out and the listing is partial (`fetchListing`), never misnamed.
        if DAVPathMapper.hasRawQueryOrFragment(entry.href) { return nil }
        guard path.depth == folder.depth + 1 else {
            throw ProviderError(.invalidResponse, "the listing of \(folder) named \(path), which is not a child")
        }
        if path.parent == folder {
            // The child's path below the caller's folder path, sharing it: the paths of a deep
            // tree's listings take memory in proportion to its depth, not to its square.
            path = try folder.appending(path.name)
        } else if path.parent.segments != folder.segments {
            throw ProviderError(.invalidResponse, "the listing of \(folder) named \(path), which is not a child")
        }
        if let status = entry.status, !(200..<300).contains(status) { return nil }
        return try makeItem(entry, expected: path)
    }

    /// Whether `href` is empty or not a path at all (neither `/…` nor `scheme://…`): such an
    /// entry is one unusable answer, not a sign of a hostile server.
    static func isUnusable(href: String) -> Bool {
        let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty || (!trimmed.hasPrefix("/") && !trimmed.contains("://"))
    }

    /// Sorts `items` by the bytes of their names, checking first whether the server already sent that order.
    static func sortByName(_ items: inout [Item]) {
        // A closure rather than `\.name`: the key path copied every item to read its name.
        let names = items.map { $0.path.name }
        if zip(names, names.dropFirst()).allSatisfy({ !bytesPrecede($1, $0) }) { return }
        // Indices are sorted rather than the (large) items, which are then moved into place
        // along the cycles of the permutation: position p receives the item at order[p].
        // Each name's first 16 bytes in two big-endian integers, zero-padded: names hold no NUL, so
        // a name that is a prefix of another sorts first, as by its bytes. Only names alike in
        // those bytes are compared whole.
        var keys = names.indices.map { index in
            var key = SortKey(high: 0, low: 0, index: index)
            var shift = 0
            for byte in names[index].utf8.prefix(16) {
                if shift < 64 { key.high |= UInt64(byte) << (56 - shift) } else { key.low |= UInt64(byte) << (120 - shift) }
                shift += 8
            }
            return key
        }
        keys.sort { a, b in
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            return bytesPrecede(names[a.index], names[b.index])
        }
        let order = keys.map(\.index)
        var placed = [Bool](repeating: false, count: items.count)
        // Swapped in the buffer: `Array.swapAt` copied both items (a retain of each of their
        // fields). `order` is a permutation of the indices, so every index is in the buffer.
        items.withUnsafeMutableBufferPointer { buffer in
            for start in buffer.indices where !placed[start] {
                var current = start
                while true {
                    placed[current] = true
                    let next = order[current]
                    if next == start { break }
                    buffer.swapAt(current, next)
                    current = next
                }
            }
        }
    }

    /// A name's place in ``sortByName(_:)``: its first 16 bytes, then its index in the list.
    private struct SortKey {
        var high: UInt64
        var low: UInt64
        var index: Int
    }

    /// Whether the UTF-8 bytes of `a` precede those of `b`: one `memcmp` where both are stored
    /// contiguously (every name a parser made), else byte by byte.
    static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        let compared = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right -> Bool in
                let common = min(left.count, right.count)
                if common > 0, let l = left.baseAddress, let r = right.baseAddress {
                    let order = memcmp(l, r, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
        if let compared = compared ?? nil { return compared }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    // MARK: Requests

    /// The PROPFIND body for items: the dialect's when there is one.
    var propfindItemsBody: String { propfindItemsBody(.all) }

    /// The PROPFIND body for items with `fields`: without ``ItemFields/mimeType`` a plain
    /// WebDAV server is not asked for `getcontenttype` (Apache looks every file's type up).
    func propfindItemsBody(_ fields: ItemFields) -> String {
        if dialect != nil { return OwnCloudProperties.propfindBody }
        return fields.contains(.mimeType) ? DAVRequestBodies.propfindItems : DAVRequestBodies.propfindItemsWithoutType
    }

    /// Sends `PROPFIND` and parses the multistatus answer.
    func propfind(_ path: ItemPath, depth: String, body: String, folder: Bool = false) async throws -> [DAVResponse] {
        try await propfind(path, depth: depth, body: body, folder: folder, parser: MultistatusParser())
    }

    /// Sends `PROPFIND` and hands each response to `each` as a ``DAVListingEntry`` as soon as it
    /// is parsed (with `itemFields`, its item properties in ``DAVListingEntry/fields``); returns how many there were.
    func propfind(
        _ path: ItemPath, depth: String, body: String, folder: Bool = false, itemFields: Bool = false,
        each: @escaping (DAVListingEntry) throws -> Void, settle: (() async throws -> Void)? = nil
    ) async throws -> Int {
        let parser = MultistatusParser(itemFields: itemFields, onEntry: each)
        _ = try await propfind(path, depth: depth, body: body, folder: folder, parser: parser, settle: settle)
        return parser.responseCount
    }

    /// `settle`, when given, runs once the body is parsed, or failed to parse: what `each` left
    /// to finish elsewhere. Its error comes before a parse error, since it is an entry's from
    /// before the point where the parse failed.
    private func propfind(
        _ path: ItemPath, depth: String, body: String, folder: Bool, parser: MultistatusParser,
        settle: (() async throws -> Void)? = nil
    ) async throws -> [DAVResponse] {
        var headers = HTTPHeaders()
        headers.add(name: "Depth", value: depth)
        headers.add(name: "Content-Type", value: "application/xml; charset=utf-8")
        headers.add(name: "Accept", value: "application/xml, text/xml")
        let request = TransportRequest(
            method: .PROPFIND, url: mapper.url(for: path, folder: folder), headers: headers,
            body: .bytes(ByteBuffer(string: body)))
        let response = try await executor.execute(request)
        guard response.status == 207 else {
            throw await error(for: response, request: request, path: path)
        }
        // Parsed while the body streams in, so a large listing is ready when its last byte is.
        var received = 0
        do {
            let parsed: Result<[DAVResponse], any Error>
            do {
                for try await piece in response.body {
                    received += piece.readableBytes
                    if received > 512 << 20 { throw ProviderError(.invalidResponse, "the multistatus answer is larger than 512 MiB") }
                    try parser.feed(piece)
                }
                parsed = .success(try parser.finish())
            } catch {
                parsed = .failure(error)
            }
            try await settle?()
            return try parsed.get()
        } catch var failure as ProviderError where failure.code == .invalidResponse {
            failure.request = request.summary
            failure.httpStatus = 207
            throw failure
        } catch {
            throw ProviderError.wrap(error, request: request.summary)
        }
    }

    /// Reads a whole XML answer, refusing absurd sizes.
    func collect(_ response: TransportResponse, request: TransportRequest, limit: Int = 512 << 20) async throws -> Data {
        do {
            let buffer = try await response.body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch {
            throw ProviderError.wrap(error, request: request.summary)
        }
    }

    /// The error for a failed answer, with the server's message where it sent one.
    func error(
        for response: TransportResponse, request: TransportRequest, path: ItemPath?, refine: ((Int) -> ProviderError.Code?)? = nil
    ) async -> ProviderError {
        let body = (try? await response.body.collect(upTo: 64 << 10)) ?? ByteBuffer()
        return errorSync(for: response, body: body, request: request, path: path, refine: refine)
    }

    func errorSync(
        for response: TransportResponse, body: ByteBuffer, request: TransportRequest, path: ItemPath?,
        refine: ((Int) -> ProviderError.Code?)? = nil
    ) -> ProviderError {
        let parsed = DAVErrorBody.parse(Data(body.readableBytesView))
        let code = refine?(response.status) ?? ProviderError.code(forHTTPStatus: response.status)
        // The server's own words, which may quote the request's Authorization header back.
        var message = parsed?.message.map(Redactor.redact)
        if message == nil {
            switch code {
            case .notFound: message = path.map { "\($0) not found" } ?? "not found"
            case .unauthorized: message = "the server refused the credentials"
            default: message = Self.describe(status: response.status)
            }
        }
        var retryAfter: Duration?
        if response.status == 429 || response.status == 503 { retryAfter = response.retryAfter }
        return ProviderError(code, message, httpStatus: response.status, request: request.summary, retryAfter: retryAfter)
    }

    /// Builds an item from a listing entry, as `makeItem(_:expected:)` does from a `DAVResponse`.
    func makeItem(_ entry: DAVListingEntry, expected: ItemPath?) throws -> Item {
        try Self.requireSuccess(entry.status, message: entry.message, href: entry.href)
        let path = try expected.map { storedPath($0, href: entry.href) } ?? mapper.path(forHref: entry.href)
        let item = DAVItemMapper.item(path: path, entry: entry)
        return dialect == nil ? item : OwnCloudProperties.refine(item, properties: entry.foundByName)
    }

    /// Builds an item from a PROPFIND response.
    func makeItem(_ response: DAVResponse, expected: ItemPath?) throws -> Item {
        try Self.requireSuccess(response.status, message: response.message, href: response.href)
        let path = try expected.map { storedPath($0, href: response.href) } ?? mapper.path(forHref: response.href)
        let item = DAVItemMapper.item(path: path, properties: response.found)
        return dialect == nil ? item : OwnCloudProperties.refine(item, properties: response.found)
    }

    /// The path an answer about `expected` names the item by: the server's own spelling from `href`
    /// when, segment by segment, it is what the declared normalisation stores for the spelling asked
    /// for (an NFD name asked for, the NFC name Nextcloud stored), so that `item(at:)`, `upload` and
    /// `createFolder` name the item as the server holds it and as its listings will; else `expected`
    /// as asked (an href that cannot be read, or that differs otherwise, changes nothing).
    func storedPath(_ expected: ItemPath, href: String) -> ItemPath {
        let rules = capabilities.names
        guard rules.normalization != .preserved, let answered = try? mapper.path(forHref: href),
            answered.depth == expected.depth
        else { return expected }
        let same = zip(answered.segments, expected.segments).allSatisfy { got, asked in
            got.unicodeScalars.elementsEqual(rules.stored(asked).unicodeScalars)
        }
        return same ? answered : expected
    }

    /// Throws the error of a `response` whose own status (answers without `propstat`) is not 2xx.
    private static func requireSuccess(_ status: Int?, message: String?, href: String) throws {
        guard let status, !(200..<300).contains(status) else { return }
        throw ProviderError(
            ProviderError.code(forHTTPStatus: status), message.map(Redactor.redact) ?? "\(href) answered \(status)", httpStatus: status)
    }
}

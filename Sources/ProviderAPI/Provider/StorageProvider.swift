import Foundation

/// Who a provider talks to and as whom: the key that separates accounts in caches and logs.
public struct ProviderAccount: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The adapter, such as `webdav` or `nuxeo`.
    public var kind: String
    /// The server's base URL, without user info.
    public var server: String
    /// The user, where known.
    public var user: String?
    /// The workspace or repository, where the server has several.
    public var workspace: String?

    /// Creates an account description.
    public init(kind: String, server: String, user: String? = nil, workspace: String? = nil) {
        self.kind = kind
        self.server = server
        self.user = user
        self.workspace = workspace
    }

    public var description: String {
        "\(kind):\(user.map { "\($0)@" } ?? "")\(server)\(workspace.map { "#\($0)" } ?? "")"
    }
}

/// One content server behind the Strata contract.
///
/// Every adapter (WebDAV, Nuxeo, Pydio, or a third party's) implements this
/// protocol, and the conformance suite (`ProviderConformance`) proves it.
/// Paths are relative to the provider's root. Every call throws
/// ``ProviderError`` only; a call outside ``capabilities`` throws
/// ``ProviderError/Code/unsupported`` without sending a request (the default
/// implementations of the optional calls do exactly that: ``move(_:to:options:)``,
/// ``copy(_:to:options:)`` and everything from ``search(_:page:)`` to ``quota()``, each naming
/// the call in its message). An adapter implements an optional call exactly when it declares its
/// feature in ``capabilities`` (``Capabilities/Features/move``, ``Capabilities/Features/copy``,
/// ``Capabilities/Features/search``, …).
///
/// Error conventions every adapter follows, and the conformance suite checks:
/// - a missing item, or a missing parent folder of an upload, folder or move
///   target, is ``ProviderError/Code/notFound``;
/// - a taken name under ``ConflictPolicy/fail`` or `overwrite: false` is
///   ``ProviderError/Code/alreadyExists``;
/// - a stale `ifMatch` is ``ProviderError/Code/preconditionFailed``;
/// - the etag an upload returns equals the one ``item(at:)`` reports, so it can go
///   straight back into ``UploadOptions/ifMatch``.
///
/// Options whose feature is not declared: ``UploadOptions/modified`` without
/// ``Capabilities/Features/setModifiedTime`` is ignored; ``PageRequest/limit``
/// without ``Capabilities/Features/paging`` is a hint; a range without
/// ``Capabilities/Features/rangeDownload``, a resume without
/// ``Capabilities/Features/resumeDownload`` and an `ifMatch` or `ifNoneMatch` without
/// ``Capabilities/Features/preconditions`` throw ``ProviderError/Code/unsupported`` before any
/// request (``Capabilities/require(_:)-(DownloadOptions)`` and
/// ``Capabilities/require(_:)-(UploadOptions)`` check this for an adapter).
///
/// ```swift
/// let (provider, files) = try await registry.provider(for: URL(string: "webdavs://dav.example.com/files")!,
///                                                     credentials: .basic(username: "ann", password: secret))
/// let page = try await provider.list(try files.appending("Reports"), page: .first)
/// _ = try await provider.download("/Reports/q3.pdf", to: FileSink(url: localURL), options: .init())
/// ```
///
/// ## Topics
/// ### Reading
/// - ``item(at:)``
/// - ``list(_:page:)``
/// - ``download(_:to:options:)``
/// ### Writing
/// - ``upload(_:to:name:options:)``
/// - ``createFolder(named:in:)``
/// - ``delete(_:)``
/// - ``move(_:to:options:)``
/// - ``copy(_:to:options:)``
/// ### Identity
/// - ``account``
/// - ``location(of:)``
/// ### Optional features
/// - ``search(_:page:)``
/// - ``shares(of:)``
/// - ``share(_:with:)``
/// - ``revoke(_:)``
/// - ``changes(since:)``
/// - ``quota()``
/// ### Paging
/// - ``pageLimits``
/// - ``ListingCompleteness``
/// - ``pageRequest(after:in:previous:)``
/// - ``listTree(_:fields:maxEntries:)``
/// - ``TreeListing``
public protocol StorageProvider: Sendable {
    /// What this provider, on this server, supports.
    var capabilities: Capabilities { get }
    /// The server and user this provider talks to.
    var account: ProviderAccount { get }
    /// The ceilings every page loop over this provider keeps to; ``PageLimits/standard`` by default.
    var pageLimits: PageLimits { get }

    /// The metadata of the item at `path`.
    func item(at path: ItemPath) async throws -> Item
    /// One page of the children of `folder`.
    func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage
    /// Streams the content of the file at `path` into `sink`.
    func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult
    /// Streams `source` into a file `name` inside `folder`, and returns the item created or replaced.
    func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item
    /// Creates the folder `name` inside `parent`; ``ProviderError/Code/alreadyExists`` if it exists.
    func createFolder(named name: String, in parent: ItemPath) async throws -> Item
    /// Deletes a file, or a folder with everything in it.
    func delete(_ path: ItemPath) async throws
    /// Moves or renames an item on the server (``Capabilities/Features/move``).
    ///
    /// Moving the root, or a folder to itself or below itself, is ``ProviderError/Code/invalidArgument``
    /// before anything is sent; so is copying one.
    func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item
    /// Copies an item (a folder with its contents) on the server (``Capabilities/Features/copy``).
    func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item

    /// The complete listings of `folder` and of the folders below it from one cheap request,
    /// or `nil` when the server offers no such listing (or could not be shown to give it right):
    /// the caller then lists folder by folder. A folder the answer does not prove is left out of
    /// the ``TreeListing``. More than `maxEntries` entries in all is `nil`, not a cut answer.
    /// The default is `nil`.
    func listTree(_ folder: ItemPath, fields: ItemFields, maxEntries: Int) async throws -> TreeListing?

    /// Where the folder at `path` lives on its server, whatever spelling reached it (its server's
    /// identity and its canonical absolute path there), so that the transfer engine can refuse a
    /// copy or a sync between two targets that are one tree. The folder need not exist.
    ///
    /// The default is ``TreeLocation/unknown``: the engine then decides by probing with a marker
    /// file, which costs a write, or refuses when it cannot.
    func location(of path: ItemPath) async throws -> TreeLocation

    /// The request for the page after the one `request` asks for in the listing of `folder`, told
    /// before that page arrives, so that page loops can fetch it while they take in the pages
    /// before it; `nil` (the default) keeps them serial.
    ///
    /// `request` is what `previous.next` points to (its cursor is `previous.next`); `previous` is
    /// the page before it, whose ``ItemPage/totalCount`` can tell that no page follows. A provider
    /// whose cursors are page numbers or offsets answers the next number; a wrong guess costs only
    /// a request: the page loops use a predicted page only when the page before it points to
    /// exactly that request (``listAll(_:pageSize:fields:)``, ``children(of:pageSize:)``,
    /// ``forEachPage(of:request:_:)``, `strata ls`).
    func pageRequest(after request: PageRequest, in folder: ItemPath, previous: ItemPage) -> PageRequest?

    /// Items matching `query` (``Capabilities/Features/search``).
    func search(_ query: Query, page: PageRequest) async throws -> ItemPage
    /// The shares of the item at `path` (``Capabilities/Features/shares``).
    func shares(of path: ItemPath) async throws -> [Share]
    /// Shares the item at `path` (``Capabilities/Features/shares``).
    ///
    /// A public link on a file carries a ``Share/downloadURL`` that a plain `GET` without
    /// credentials answers with the file's bytes (unless it has a password); the returned
    /// ``Share/expires`` is the expiry the server set, within ``Capabilities/shareExpiryGranularity``
    /// of the one asked. The conformance suite's `shares` cases open the link to check both.
    func share(_ path: ItemPath, with request: ShareRequest) async throws -> Share
    /// Removes a share (``Capabilities/Features/shares``).
    func revoke(_ share: Share) async throws
    /// Changes since `token`, or a first token when `nil` (``Capabilities/Features/changes``).
    func changes(since token: ChangeToken?) async throws -> ChangeBatch
    /// Space used and available (``Capabilities/Features/quota``).
    func quota() async throws -> Quota
}

extension StorageProvider {
    public var pageLimits: PageLimits { .standard }
    public func location(of path: ItemPath) async throws -> TreeLocation { .unknown }
    public func listTree(_ folder: ItemPath, fields: ItemFields, maxEntries: Int) async throws -> TreeListing? { nil }
    public func pageRequest(after request: PageRequest, in folder: ItemPath, previous: ItemPage) -> PageRequest? { nil }
    public func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        throw ProviderError.unsupported("move")
    }
    public func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        throw ProviderError.unsupported("copy")
    }
    public func search(_ query: Query, page: PageRequest) async throws -> ItemPage { throw ProviderError.unsupported("search") }
    public func shares(of path: ItemPath) async throws -> [Share] { throw ProviderError.unsupported("shares") }
    public func share(_ path: ItemPath, with request: ShareRequest) async throws -> Share { throw ProviderError.unsupported("sharing") }
    public func revoke(_ share: Share) async throws { throw ProviderError.unsupported("revoking shares") }
    public func changes(since token: ChangeToken?) async throws -> ChangeBatch { throw ProviderError.unsupported("changes") }
    public func quota() async throws -> Quota { throw ProviderError.unsupported("quota") }
}

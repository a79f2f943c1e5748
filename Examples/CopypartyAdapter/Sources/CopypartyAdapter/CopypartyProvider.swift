import Foundation
import HTTPProviderKit
import ProviderAPI

/// A folder of a copyparty server (`pip install copyparty`) through its own HTTP/JSON API.
///
/// Paths are relative to the URL the provider is configured with (a folder of one of the
/// server's volumes); the account needs the read, write, move and delete rights there, and the
/// `.` right to see dotfiles (copyparty's `rwmd.` or `A`).
///
/// What the server keeps decides the ``capabilities``: ranges (and resumes, under a
/// `Last-Modified` validator), server-side move and copy, empty folders, modification times in
/// whole seconds, set on upload. It keeps no etags, so there are no preconditions, and it has no atomic
/// replace: an upload is staged under a hidden name and moved into place (see
/// ``upload(_:to:name:options:)``).
///
/// ```swift
/// let configuration = ProviderConfiguration(url: URL(string: "http://nas.local:3923/photos/")!,
///                                           credentials: .basic(username: "ann", password: secret))
/// let photos = try CopypartyProvider(configuration: configuration)
/// let page = try await photos.list(.root, page: .first)
/// ```
public struct CopypartyProvider: StorageProvider {
    /// What copyparty's API shows: see the README for why each feature is in or out.
    public let capabilities = Capabilities(
        features: [.rangeDownload, .resumeDownload, .move, .copy, .emptyFolders, .setModifiedTime],
        modifiedTimePrecision: .seconds(1),
        // copyparty drops a name's leading and trailing spaces (` a.txt ` is stored as `a.txt`).
        names: NameRules(allowsLeadingSpace: false, allowsTrailingSpace: false))

    /// The server and user.
    public let account: ProviderAccount

    /// The requests.
    let server: CopypartyServer

    /// A provider for the folder `configuration.url` names, sending its requests through
    /// `configuration.transport` with `configuration.credentials` (HTTP Basic; copyparty
    /// checks the password), `configuration.retry` and `configuration.logger`.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL that is not `http` or `https`,
    ///   or that has a query or a fragment.
    public init(configuration: ProviderConfiguration) throws {
        let url = configuration.url
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw ProviderError(.invalidArgument, "a copyparty provider needs an http or https URL, not \(Redactor.redact(url: url))")
        }
        // copyparty's own secrets: its password header and query parameter (which its links
        // may carry), and the session cookie it sets on every answer.
        Redactor.register(secretHeaders: ["PW"], queryNames: ["pw"], cookieNames: ["cppwd"])
        server = try CopypartyServer(root: url, executor: RequestExecutor(configuration: configuration))
        account = ProviderAccount(
            kind: "copyparty", server: Redactor.redact(url: server.root), user: configuration.credentials.username)
    }

    /// The item at `path`, read from its parent folder's listing (copyparty has no call for one
    /// item; a `HEAD` tells a file's size but not a folder from a missing name).
    public func item(at path: ItemPath) async throws -> Item {
        if path.isRoot { return Item(path: .root, kind: .folder) }
        guard let item = try await server.listing(of: path.parent).item(named: path.name) else {
            throw ProviderError(.notFound, "\(path) does not exist")
        }
        return item
    }

    /// The whole folder in one page: copyparty lists a folder in one answer, without paging
    /// and without a count.
    public func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        guard page.cursor == nil else { throw ProviderError(.invalidArgument, "a copyparty listing has one page") }
        let items = try await server.listing(of: folder).items
        return ItemPage(items: items.sorted { $0.name < $1.name })
    }

    /// Streams the file at `path` into `sink`, with `HTTPDownloader`'s range, resume and length
    /// rules. Its item (size and date) comes from the parent's listing first, so that a folder
    /// or a missing name fails before any byte.
    public func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        try capabilities.require(options)
        let item = try await item(at: path)
        guard !item.isFolder else { throw ProviderError(.invalidArgument, "\(path) is a folder, not a file") }
        var request = TransportRequest(method: .GET, url: server.url(path))
        request.label = "download \(path)"
        return try await HTTPDownloader(executor: server.executor).download(
            request, to: sink, options: options, expected: item, dialect: CopypartyDownloads(item: item))
    }

    /// Makes the folder `name` in `parent`.
    ///
    /// copyparty creates missing parent folders and answers a taken name with 405 (a folder) or
    /// 500 (a file), so the parent's listing is read first: a missing parent is `.notFound`, a
    /// taken name `.alreadyExists`.
    public func createFolder(named name: String, in parent: ItemPath) async throws -> Item {
        let path = try parent.appending(name)
        guard try await server.listing(of: parent).item(named: name) == nil else {
            throw ProviderError(.alreadyExists, "\(path) already exists")
        }
        do {
            try await server.makeFolder(name, in: parent)
        } catch let error as ProviderError where error.httpStatus == 405 || error.httpStatus == 500 {
            if (try? await item(at: path)) != nil { throw ProviderError(.alreadyExists, "\(path) already exists") }
            throw error
        }
        return try await item(at: path)
    }

    /// Deletes the file, or the folder with everything in it, at `path`.
    public func delete(_ path: ItemPath) async throws {
        guard !path.isRoot else { throw ProviderError(.invalidArgument, "the root cannot be deleted") }
        try await server.delete(path)
    }
}

import Foundation
import HTTPProviderKit
import NIOCore
import NIOHTTP1
import ProviderAPI

/// copyparty's HTTP API, one method per request: what the provider's calls are made of.
///
/// The API (copyparty's `docs/devnotes.md`, "http api"): `GET folder/?ls` lists a folder as
/// JSON, `GET file` downloads (with ranges), `PUT file` uploads, `POST path?move=/to` and
/// `?copy=/to` move and copy, `POST path?delete` deletes (a folder with its contents), and a
/// multipart `POST folder/` with `act=mkdir` makes a folder.
struct CopypartyServer: Sendable {
    /// The provider's root folder, ending in `/`.
    let root: URL
    /// Sends every request: credentials, retries, redirects, logging.
    let executor: RequestExecutor

    init(root: URL, executor: RequestExecutor) throws {
        var text = root.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        guard let url = URL(string: text), url.query == nil, url.fragment == nil else {
            throw ProviderError(.invalidArgument, "a copyparty URL names a folder, without query or fragment: \(Redactor.redact(url: root))")
        }
        self.root = url
        self.executor = executor
    }

    // MARK: Addresses

    /// The bytes a path segment may keep in a URL; every other byte is percent-encoded.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `path` below the root, percent-encoded, without a leading `/`; a folder's ends in `/`.
    private func relative(_ path: ItemPath, folder: Bool) -> String {
        let segments = path.segments.map { $0.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? "" }
        let text = segments.joined(separator: "/")
        return folder && !text.isEmpty ? text + "/" : text
    }

    /// The URL of `path`, with `query` if given.
    func url(_ path: ItemPath, folder: Bool = false, query: String? = nil) -> URL {
        let text = root.absoluteString + relative(path, folder: folder) + (query.map { "?" + $0 } ?? "")
        return URL(string: text) ?? root
    }

    /// `path` as the server names it in `?move=` and `?copy=`: absolute, percent-encoded.
    func serverPath(_ path: ItemPath) -> String {
        root.path(percentEncoded: true) + relative(path, folder: false)
    }

    // MARK: Requests

    /// The entries of the folder at `path`; `ProviderError.Code.notFound` if there is none.
    func listing(of path: ItemPath) async throws -> CopypartyListing {
        // `dots` lists dotfiles too (for an account with the `.` right); without it they are hidden.
        let response = try await send(.GET, url(path, folder: true, query: "ls&dots"), label: "list \(path)")
        // `GET file/?ls` answers the file itself; only a listing lacks a Last-Modified.
        guard response.headers.first(name: "last-modified") == nil else {
            await response.body.discard()
            throw ProviderError(.invalidArgument, "\(path) is a file, not a folder")
        }
        let body = try await response.body.collect(upTo: CopypartyListing.maxBytes)
        return try CopypartyListing(decoding: body, folder: path)
    }

    /// Stores `source` as the file at `path`, replacing what is there, dated `modified` if given.
    func put(_ source: any UploadSource, at path: ItemPath, modified: Date?, progress: ProgressHandler?) async throws {
        var headers: HTTPHeaders = ["Content-Type": "application/octet-stream"]
        if let length = source.length { headers.add(name: "Content-Length", value: String(length)) }
        // The header ownCloud clients send, which copyparty takes on a PUT (in seconds).
        if let modified { headers.add(name: "X-OC-MTime", value: String(format: "%.3f", modified.timeIntervalSince1970)) }
        // `ck` turns the server's checksum off: nothing reads it (it is a truncated SHA-512).
        let response = try await send(.PUT, url(path, query: "ck"), body: .source(source), headers: headers, progress: progress, label: "upload \(path)")
        await response.body.discard()
        if modified != nil, response.headers.first(name: "X-OC-MTime") != "accepted" {
            throw ProviderError(.server, "the server did not take the modification time of \(path)")
        }
    }

    /// Moves the file or folder at `source` to `destination`. The server refuses a taken file
    /// name, creates missing parent folders, and merges a folder into one already there.
    func move(_ source: ItemPath, to destination: ItemPath) async throws {
        let response = try await send(.POST, url(source, query: "move=" + serverPath(destination)), label: "move \(source) to \(destination)")
        await response.body.discard()
    }

    /// Copies the file or folder at `source` to `destination` (the same rules as ``move(_:to:)``).
    func copy(_ source: ItemPath, to destination: ItemPath) async throws {
        let response = try await send(.POST, url(source, query: "copy=" + serverPath(destination)), label: "copy \(source) to \(destination)")
        await response.body.discard()
    }

    /// Deletes the file, or the folder with everything in it, at `path`.
    func delete(_ path: ItemPath) async throws {
        let response = try await send(.POST, url(path, query: "delete"), label: "delete \(path)")
        await response.body.discard()
    }

    /// Makes the folder `name` in `parent`. The server creates missing parents and answers 405
    /// when the folder exists, 500 when a file has the name.
    func makeFolder(_ name: String, in parent: ItemPath) async throws {
        var form = MultipartFormBody()
        form.addField("act", "mkdir")
        form.addField("name", name)
        let response = try await send(
            .POST, url(parent, folder: true), body: .source(form), headers: ["Content-Type": form.contentType], label: "mkdir \(name) in \(parent)")
        await response.body.discard()
    }

    /// Sends a request and returns the answer when its status is 2xx; any other status is
    /// thrown as the `ProviderError` it means (``CopypartyFailure``).
    func send(
        _ method: HTTPMethod, _ url: URL, body: HTTPRequestBody? = nil, headers: HTTPHeaders = [:],
        progress: ProgressHandler? = nil, label: String
    ) async throws -> TransportResponse {
        var request = TransportRequest(method: method, url: url, headers: headers, body: body, uploadProgress: progress)
        request.label = label
        let response = try await executor.execute(request)
        guard response.isSuccess else { throw await CopypartyFailure.error(for: response, request: request) }
        return response
    }
}

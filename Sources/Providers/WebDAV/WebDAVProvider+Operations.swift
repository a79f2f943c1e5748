import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

extension WebDAVProvider {
    public func createFolder(named name: String, in parent: ItemPath) async throws -> Item {
        let path = try parent.appending(name)
        await verifyBeforeWrite(in: parent)
        try requireKept(name)
        if profile.verified.mkcolRefusesExisting == false, try await itemIfExists(at: path) != nil {
            // This server answers MKCOL over an existing folder with success (rclone serve): check
            // first, which is not atomic.
            throw ProviderError(.alreadyExists, "\(path) already exists")
        }
        // MKCOL is sent again after a connection the server closed without a word (chezdav closes
        // it after a DELETE): repeated, it leaves the same state (the folder exists), as a PUT does.
        let request = TransportRequest(method: .MKCOL, url: mapper.url(for: path, folder: true), isIdempotent: true)
        let response = try await executor.execute(request)
        guard response.isSuccess else {
            let refused = [400, 404, 405, 409].contains(response.status)
            if refused || (500..<600).contains(response.status) {
                // What is there decides: Apache answers 400 for MKCOL over an existing file, 409
                // for a missing parent; copyparty 500 over a file.
                if let existing = try await itemIfExists(at: path) {
                    await response.body.discard()
                    throw ProviderError(
                        .alreadyExists, "\(path) already exists (a \(existing.kind == .folder ? "folder" : "file"))",
                        httpStatus: response.status, request: request.summary)
                }
                if refused, try await itemIfExists(at: parent) == nil {
                    await response.body.discard()
                    throw ProviderError(.notFound, "the folder \(parent) does not exist", httpStatus: response.status, request: request.summary)
                }
            }
            throw await error(for: response, request: request, path: path) { status in
                // RFC 4918 9.3.1: 405 means the resource already exists.
                status == 405 ? .alreadyExists : nil
            }
        }
        await response.body.discard()
        // A MKCOL that succeeded on a server shown to refuse it over an existing folder made the
        // folder: it is empty (see `FreshFolders`).
        freshFolders.wrote(name, in: parent)
        if profile.verified.mkcolRefusesExisting == true { freshFolders.made(path) }
        knownFolders.insert(path)
        return try await item(at: path)
    }

    public func delete(_ path: ItemPath) async throws {
        if path.isRoot { throw ProviderError(.invalidArgument, "refusing to delete the provider's root") }
        try await deleteItem(path, folder: nil)
    }

    /// `DELETE` of `path`, with the trailing slash when `folder` says it is a folder.
    ///
    /// When the kind is not known (`nil`) the file URL is tried first, which costs one request
    /// for a file; a server that refuses a collection URL without its slash (nginx: 409; others
    /// 301/308 or 400) is then asked again with it once `PROPFIND` has shown a folder is there.
    func deleteItem(_ path: ItemPath, folder: Bool?) async throws {
        knownFolders.forgetAll()
        freshFolders.forgetAll()
        let request = TransportRequest(method: .DELETE, url: mapper.url(for: path, folder: folder ?? false))
        let response = try await executor.execute(request)
        if folder == nil, [301, 302, 307, 308, 400, 409].contains(response.status) {
            await response.body.discard()
            let existing = try await item(at: path)
            if existing.kind == .folder { return try await deleteItem(path, folder: true) }
            throw ProviderError(
                .conflict, "the server refused to delete \(path) (HTTP \(response.status))", httpStatus: response.status,
                request: request.summary)
        }
        try await expectSuccess(response, request: request, path: path)
    }

    public func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try capabilities.require(.move, for: "move")
        return try await transfer(.MOVE, source, to: destination, options: options)
    }

    public func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try capabilities.require(.copy, for: "copy")
        return try await transfer(.COPY, source, to: destination, options: options)
    }

    /// `MOVE` or `COPY` with `Destination` and `Overwrite`.
    func transfer(_ method: HTTPMethod, _ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try source.checkTransfer(to: destination, action: method.rawValue.lowercased())
        if method == .MOVE { knownFolders.forgetAll() }
        freshFolders.forgetAll()
        await verifyBeforeWrite(in: destination.parent)
        try requireKept(destination.name)
        // Collections are addressed with their trailing slash on both URLs (nginx needs it).
        let sourceItem = try await item(at: source)
        let folder = sourceItem.kind == .folder
        let verified = profile.verified
        let merges = method == .COPY ? verified.copyMergesOnFolderOverwrite : verified.mergesOnFolderOverwrite
        if folder, options.overwrite, merges != false,
            let existing = try await itemIfExists(at: destination), existing.kind == .folder
        {
            // RFC 4918 9.8.4 / 9.9.3: an overwrite replaces the destination, but some servers
            // (lighttpd) merge the source into an existing folder. Where the server was not shown
            // to replace, deleting it first gives the replacement; it is not atomic. Where it was,
            // the MOVE/COPY alone replaces, and a failed one leaves the destination as it was.
            try await deleteItem(destination, folder: true)
        }
        if folder, !options.overwrite, merges != false, try await itemIfExists(at: destination) != nil {
            // A server that merges folders may merge under `Overwrite: F` too (copyparty moved the
            // source's files into the taken folder and answered 201): where it was not shown to
            // replace, a taken destination is refused before the request (not atomic).
            throw ProviderError(.alreadyExists, "\(destination) already exists")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Destination", value: mapper.url(for: destination, folder: folder).absoluteString)
        headers.add(name: "Overwrite", value: options.overwrite ? "T" : "F")
        if method == .COPY || folder { headers.add(name: "Depth", value: "infinity") }
        let request = TransportRequest(method: method, url: mapper.url(for: source, folder: folder), headers: headers)
        let response = try await executor.execute(request)
        guard response.isSuccess else {
            let body = (try? await response.body.collect(upTo: 64 << 10)) ?? ByteBuffer()
            let generic = errorSync(for: response, body: body, request: request, path: source)
            throw try await transferError(generic, destination: destination, overwrite: options.overwrite)
        }
        if let failure = try await multistatusFailure(response, request: request) {
            throw try await transferError(failure, destination: destination, overwrite: options.overwrite)
        }
        return try await item(at: destination)
    }

    /// Refuses a name this server was shown not to keep as sent on some route (a character it
    /// refuses or changes, a leading or trailing space or dot, a name too long), before a request
    /// could store it under another name: such names are mapped with `NameEncoder` first. Dot-files
    /// are not refused here (a server that does not list them still stores them under their name).
    func requireKept(_ name: String) throws {
        var rules = capabilities.names
        rules.allowsDotFiles = true
        guard rules.accepts(name) else {
            throw ProviderError(
                .invalidArgument, "this server does not keep the name \(name.debugDescription) as sent; encode it with NameEncoder")
        }
    }

    /// The RFC 4918 meaning of a failed `MOVE` or `COPY` (a status of the whole answer or of one
    /// resource in a 207): 412 under `Overwrite: F` is a taken destination (9.8.5, 9.9.4); a 409
    /// is a missing destination parent, or a taken destination when it is shown to exist
    /// (lighttpd answers 409 to `COPY` onto a folder); 423 is a lock; 507 is quota. Any other 4xx
    /// under `Overwrite: F` is a taken destination when the destination is found to exist
    /// (copyparty answers 400), else the server's error as it was.
    func transferError(_ failure: ProviderError, destination: ItemPath, overwrite: Bool) async throws -> ProviderError {
        var error = failure
        switch failure.httpStatus {
        case 412 where !overwrite:
            error.code = .alreadyExists
            error.message = "\(destination) already exists"
        case let status? where !overwrite && (400..<500).contains(status) && ![401, 403, 407, 409, 423].contains(status):
            // Another 4xx under `Overwrite: F` (copyparty: 400): a taken destination when one is
            // there, else the server's error as it is.
            if try await itemIfExists(at: destination) != nil {
                error.code = .alreadyExists
                error.message = "\(destination) already exists"
            }
        case 409:
            if try await itemIfExists(at: destination.parent) == nil {
                error.code = .notFound
                error.message = "the folder \(destination.parent) does not exist"
            } else if !overwrite, try await itemIfExists(at: destination) != nil {
                error.code = .alreadyExists
                error.message = "\(destination) already exists"
            }
        default:
            break
        }
        return error
    }

    public func quota() async throws -> Quota {
        try capabilities.require(.quota, for: "quota")
        let responses = try await propfind(.root, depth: "0", body: DAVRequestBodies.propfindQuota, folder: true)
        let found = responses.first?.found ?? [:]
        let used = found[.quotaUsed].flatMap { Int64($0.text) }
        let available = found[.quotaAvailable].flatMap { Int64($0.text) }.flatMap { $0 >= 0 ? $0 : nil }
        if used == nil, available == nil {
            throw ProviderError(.unsupported, "the server reported no quota for this folder")
        }
        return Quota(used: used, available: available)
    }

    /// Accepts 2xx, reading a 207 body for per-resource failures (RFC 4918 9.6.1, 9.8.8).
    func expectSuccess(_ response: TransportResponse, request: TransportRequest, path: ItemPath) async throws {
        guard response.isSuccess else { throw await error(for: response, request: request, path: path) }
        if let failure = try await multistatusFailure(response, request: request) { throw failure }
    }

    /// The first per-resource failure of a 207 answer to a write, as an error; `nil` for any
    /// other 2xx. The body is consumed either way.
    func multistatusFailure(_ response: TransportResponse, request: TransportRequest) async throws -> ProviderError? {
        guard response.status == 207 else {
            await response.body.discard()
            return nil
        }
        let data = try await collect(response, request: request, limit: 64 << 20)
        let responses: [DAVResponse]
        do { responses = try MultistatusParser.parse(data) } catch var failure as ProviderError {
            failure.request = request.summary
            throw failure
        }
        for entry in responses {
            let status = entry.status ?? entry.propstats.first(where: { !(200..<300).contains($0.status) })?.status
            if let status, !(200..<300).contains(status) {
                return ProviderError(
                    ProviderError.code(forHTTPStatus: status),
                    entry.message.map(Redactor.redact) ?? "\(entry.href) failed with \(Self.describe(status: status))",
                    httpStatus: status, request: request.summary)
            }
        }
        return nil
    }

    /// A status as a message: its RFC 4918 meaning where it has one.
    static func describe(status: Int) -> String {
        switch status {
        case 423: return "HTTP 423 (the item is locked)"
        case 507: return "HTTP 507 (insufficient storage)"
        default: return "HTTP \(status)"
        }
    }
}

import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderKit
import HTTPProviderKit

extension WebDAVProvider {
    public func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        if path.isRoot { throw ProviderError(.invalidArgument, "the root is a folder, not a file") }
        try capabilities.require(options)
        var options = options
        var request = TransportRequest(method: .GET, url: mapper.url(for: path))
        var ifMatchSentAsIf: String?
        if let ifMatch = options.ifMatch, WebDAVProvider.isWeak(ifMatch) {
            request.headers.add(name: "If", value: "([\(ifMatch)])")
            ifMatchSentAsIf = ifMatch
            options.ifMatch = nil
        }
        // In the dialect the answer's own `OC-Checksum` (the stored checksum, the one `oc:checksums`
        // shows) is what the download is verified against: no PROPFIND before the GET.
        let answers = WebDAVDownloadAnswers(
            provider: self, path: path, wanted: options.ifMatch ?? ifMatchSentAsIf, readsChecksums: dialect != nil)
        return try await HTTPDownloader(executor: executor).download(request, to: sink, options: options, expected: nil, dialect: answers)
    }

    public func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        try ItemPath.validate(name: name)
        // Whether the server honours If-None-Match and If-Match, and keeps partial bodies, is known after this.
        await verifyBeforeWrite(in: folder)
        try capabilities.require(options)
        try requireKept(name)
        // The folder is looked up first (once, `KnownFolders`) unless this server was shown to
        // refuse a PUT below a missing folder: copyparty makes the missing folders instead.
        if profile.verified.putCreatesParents != false { try await requireFolder(folder) }
        // In a folder this provider made, a name it never wrote there is free (`FreshFolders`):
        // no look at it either, on a server that ignores `If-None-Match: *` too. The claim records
        // the name as written from here on, whatever the route and the options.
        let unwritten = freshFolders.claim(name, in: folder)
        let fresh = dialect == nil && options.conflict == .fail && options.ifMatch == nil && unwritten
        if profile.uploadsThroughTemporary {
            return try await uploadThroughTemporary(source, to: folder, name: name, options: options)
        }
        // The server keeps `If-Match` and never replaces a collection by a `PUT`. A taken name is
        // refused by `If-None-Match: *` alone where the verifier saw this server refuse it over an
        // existing file (plain WebDAV; one request, not a `PROPFIND` of the name first, which races
        // no less); elsewhere it is looked at first, and the `PUT` still carries `If-None-Match: *`.
        let refusesTaken =
            fresh || capabilities.supports(.exclusiveCreate) || (dialect == nil && profile.verified.refusesIfNoneMatchStar == true)
        let checks: UploadPlacement.WriteChecks = refusesTaken ? [.exclusive, .ifMatch, .folders] : [.ifMatch, .folders]
        return try await UploadPlacement.place(
            name, in: folder, options: options, checks: checks, maxAttempts: 1000, folderTaken: .conflict,
            existing: { candidate in try await itemIfExists(at: folder.appending(candidate)) },
            write: { candidate, placement in
                let path = try folder.appending(candidate)
                do {
                    return try await put(source, at: path, options: options, exclusive: placement == .exclusive)
                } catch let refused as ProviderError where refused.code == .alreadyExists && options.conflict == .fail {
                    // Refused unseen (412): a folder there is a conflict, as when it is looked at first.
                    if let there = try? await itemIfExists(at: path), there.kind == .folder {
                        throw ProviderError(.conflict, "\(path) is a folder, not a file", request: refused.request)
                    }
                    throw refused
                }
            })
    }

    /// One `PUT`, then a `PROPFIND` for the item's metadata.
    func put(_ source: any UploadSource, at path: ItemPath, options: UploadOptions, exclusive: Bool) async throws -> Item {
        if let dialect { return try await dialectPut(source, at: path, options: options, exclusive: exclusive, dialect: dialect) }
        return try await plainPut(source, at: path, options: options, exclusive: exclusive)
    }

    /// One plain `PUT`; `extraHeaders` are the dialect's (`OC-Checksum`, `X-OC-Mtime`), and
    /// `answered` sees the response headers before the item is read back.
    func plainPut(
        _ source: any UploadSource, at path: ItemPath, options: UploadOptions, exclusive: Bool,
        extraHeaders: HTTPHeaders = [:], answered: (@Sendable (HTTPHeaders) -> Void)? = nil
    ) async throws -> Item {
        var headers = extraHeaders
        headers.add(name: "Content-Type", value: options.mimeType ?? MIMETypes.guess(path.name))
        if exclusive { headers.add(name: "If-None-Match", value: "*") }
        if let ifMatch = options.ifMatch {
            if WebDAVProvider.isWeak(ifMatch) {
                // If-Match compares strongly, so Apache's weak etag (a file changed within the last
                // second) never matches; the RFC 4918 If header matches it (checked on Apache and sabre).
                headers.add(name: "If", value: "([\(ifMatch)])")
            } else {
                headers.add(name: "If-Match", value: ifMatch)
            }
        }
        let request = TransportRequest(
            method: .PUT, url: mapper.url(for: path), headers: headers, body: .source(source),
            uploadProgress: options.progress)
        options.progress?(TransferProgress(completed: 0, expected: source.length))
        let response: TransportResponse
        do {
            response = try await executor.execute(request)
        } catch {
            throw ProviderError.wrap(error, request: request.summary)
        }
        guard response.isSuccess else {
            let status = response.status
            if [404, 409, 500].contains(status), try await itemIfExists(at: path.parent) == nil {
                await response.body.discard()
                throw ProviderError(.notFound, "the folder \(path.parent) does not exist", httpStatus: status, request: request.summary)
            }
            throw await error(for: response, request: request, path: path) { status in
                if status == 412 { return exclusive && options.ifMatch == nil ? .alreadyExists : .preconditionFailed }
                if status == 405 { return .conflict }
                return nil
            }
        }
        await response.body.discard()
        answered?(response.headers)
        if let modified = options.modified, extraHeaders.first(name: "x-oc-mtime") == nil { await setModified(modified, at: path) }
        guard options.readBack else {
            var item = Item(path: path, kind: .file)
            item.size = source.length
            item.etag = response.etag
            item.mimeType = headers.first(name: "content-type")
            return item
        }
        var item = try await item(at: path)
        if item.size == nil { item.size = source.length }
        return item
    }

    /// Tries `PROPPATCH` of `getlastmodified`; servers that refuse it keep their own time.
    func setModified(_ date: Date, at path: ItemPath) async {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/xml; charset=utf-8")
        let body = DAVRequestBodies.proppatchModified(HTTPDate.format(date))
        let request = TransportRequest(
            method: .PROPPATCH, url: mapper.url(for: path), headers: headers, body: .bytes(ByteBuffer(string: body)))
        guard let response = try? await executor.execute(request) else { return }
        await response.body.discard()
    }
}

extension WebDAVProvider {
    static func isWeak(_ etag: String) -> Bool { ETag.isWeak(etag) }

    /// Whether two etags name the same content, weak or not (``ETag/weaklyEqual(_:_:)``).
    static func sameETag(_ one: String, _ other: String) -> Bool { ETag.weaklyEqual(one, other) }
}

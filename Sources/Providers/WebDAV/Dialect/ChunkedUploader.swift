import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderKit
import HTTPProviderKit

/// Thrown before any chunk is sent when the server has no upload area.
struct ChunkingUnavailable: Error {}

/// Nextcloud chunking v2 (also ownCloud 10's "new" chunking): `MKCOL` an upload folder below
/// `remote.php/dav/uploads/USER/`, `PUT` numbered chunks (1, 2, …) into it, then `MOVE` its
/// `.file` onto the destination with `OC-Total-Length`, `OC-Checksum` and `X-OC-Mtime`.
///
/// The upload folder's name is derived from the user, the destination, the length and the
/// content's SHA-1, so a later upload of the same content to the same place finds it: it lists
/// the chunks already there (`PROPFIND`, `Depth: 1`) and sends only the missing ones. A network
/// failure leaves the folder for that resume; any other failure, and cancellation, deletes it.
/// Each chunk is held in memory while it is sent (``WebDAVDialect/chunkSize``), so that a
/// retried request can send it again.
struct ChunkedUploader: Sendable {
    let provider: WebDAVProvider
    let dialect: WebDAVDialect

    /// The name of the upload folder for this content at this destination.
    static func uploadID(user: String, destination: String, length: Int64, sha1: String) -> String {
        let digest = Insecure.SHA1.hash(data: Data("\(user)\n\(destination)\n\(length)\n\(sha1)".utf8))
        return "strata-" + digest.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }

    /// The absolute URL of `path` in the user's files, as `Destination` wants it.
    func destinationURL(_ path: ItemPath) -> URL {
        let segments = provider.userRootSegments + path.segments
        return URL(string: dialect.filesRoot.absoluteString + segments.map(DAVPathMapper.encode(segment:)).joined(separator: "/"))
            ?? dialect.filesRoot
    }

    func upload(
        _ source: any UploadSource, length: Int64, sha1: String, to path: ItemPath, options: UploadOptions, exclusive: Bool
    ) async throws -> Item {
        if exclusive, try await provider.itemIfExists(at: path) != nil {
            throw ProviderError(.alreadyExists, "\(path) already exists")
        }
        let destination = destinationURL(path)
        let id = Self.uploadID(user: dialect.user, destination: destination.absoluteString, length: length, sha1: sha1)
        guard let folder = URL(string: dialect.uploadsRoot.absoluteString + id + "/") else {
            throw ProviderError(.invalidArgument, "cannot build the upload folder URL")
        }
        var common = HTTPHeaders()
        common.add(name: "Destination", value: destination.absoluteString)
        common.add(name: "OC-Total-Length", value: String(length))
        do {
            let done = try await existingChunks(folder, headers: common)
            let item = try await sendChunks(
                source, length: length, folder: folder, done: done, headers: common, options: options)
            _ = item
            return try await assemble(folder, path: path, length: length, sha1: sha1, headers: common, options: options, exclusive: exclusive)
        } catch let failure as ProviderError where failure.code == .network {
            throw failure  // the chunks stay for a resume
        } catch let unavailable as ChunkingUnavailable {
            throw unavailable
        } catch {
            await abort(folder)
            throw ProviderError.wrap(error)
        }
    }

    /// Chunk number → size of the chunks already in the upload folder; creates the folder when missing.
    func existingChunks(_ folder: URL, headers: HTTPHeaders) async throws -> [Int: Int64] {
        var propfindHeaders = HTTPHeaders()
        propfindHeaders.add(name: "Depth", value: "1")
        propfindHeaders.add(name: "Content-Type", value: "application/xml; charset=utf-8")
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/></d:prop></d:propfind>
            """
        let request = TransportRequest(method: .PROPFIND, url: folder, headers: propfindHeaders, body: .bytes(ByteBuffer(string: body)))
        let response = try await provider.executor.execute(request)
        if response.status == 404 {
            await response.body.discard()
            let mkcol = TransportRequest(method: .MKCOL, url: folder, headers: headers)
            let made = try await provider.executor.execute(mkcol)
            if [404, 501].contains(made.status) {
                // No upload area: this server has no chunking after all.
                await made.body.discard()
                throw ChunkingUnavailable()
            }
            guard made.isSuccess else { throw await provider.error(for: made, request: mkcol, path: nil) }
            await made.body.discard()
            return [:]
        }
        guard response.status == 207 else { throw await provider.error(for: response, request: request, path: nil) }
        let data = try await provider.collect(response, request: request, limit: 16 << 20)
        var chunks: [Int: Int64] = [:]
        for entry in try MultistatusParser.parse(data) {
            let name = entry.href.split(separator: "/").last.map(String.init) ?? ""
            guard let number = Int(name), let size = entry.found[.getcontentlength].flatMap({ Int64($0.text) }) else { continue }
            chunks[number] = size
        }
        return chunks
    }

    /// Reads the source once, sending each chunk not already on the server.
    func sendChunks(
        _ source: any UploadSource, length: Int64, folder: URL, done: [Int: Int64], headers: HTTPHeaders,
        options: UploadOptions
    ) async throws -> Int {
        var number = 1
        var sent: Int64 = 0
        options.progress?(TransferProgress(completed: 0, expected: length))

        func flush(_ chunk: ByteBuffer) async throws {
            let size = Int64(chunk.readableBytes)
            if done[number] == size {
                sent += size
            } else {
                try await putChunk(chunk, number: number, folder: folder, headers: headers, sentBefore: sent, total: length, options: options)
                sent += size
            }
            options.progress?(TransferProgress(completed: sent, expected: length))
            number += 1
        }

        var reader = try PartReader(source: source, length: length, partSize: Int(dialect.chunkSize))
        while let part = try await reader.next() { try await flush(part.bytes) }
        if number == 1 { try await flush(ByteBuffer()) }  // an empty file is one empty chunk
        try await reader.expectEnd()
        return number - 1
    }

    /// Sends one chunk; a chunk whose answer was lost is sent again, as often as the retry policy allows.
    func putChunk(
        _ chunk: ByteBuffer, number: Int, folder: URL, headers: HTTPHeaders, sentBefore: Int64, total: Int64,
        options: UploadOptions
    ) async throws {
        let retry = provider.executor.retry
        var attempt = 1
        while true {
            do {
                return try await putChunkOnce(
                    chunk, number: number, folder: folder, headers: headers, sentBefore: sentBefore, total: total, options: options)
            } catch let failure as ProviderError where failure.code == .network && attempt < retry.maxAttempts {
                try await Task.sleep(for: retry.delay(forRetry: attempt))
                attempt += 1
            }
        }
    }

    func putChunkOnce(
        _ chunk: ByteBuffer, number: Int, folder: URL, headers: HTTPHeaders, sentBefore: Int64, total: Int64,
        options: UploadOptions
    ) async throws {
        guard let url = URL(string: folder.absoluteString + String(number)) else {
            throw ProviderError(.invalidArgument, "cannot build the chunk URL")
        }
        var chunkHeaders = headers
        chunkHeaders.add(name: "Content-Type", value: "application/octet-stream")
        var digester = Digester(.sha1)
        digester?.update(chunk)
        if let hex = digester?.finalize() { chunkHeaders.add(name: "OC-Checksum", value: OwnCloudChecksum.header(.sha1, hex)) }
        var chunkProgress: ProgressHandler?
        if let report = options.progress {
            chunkProgress = { @Sendable (step: TransferProgress) in
                report(TransferProgress(completed: sentBefore + step.completed, expected: total))
            }
        }
        let request = TransportRequest(
            method: .PUT, url: url, headers: chunkHeaders, body: .bytes(chunk), uploadProgress: chunkProgress)
        let response: TransportResponse
        do {
            response = try await provider.executor.execute(request)
        } catch {
            throw ProviderError.wrap(error, request: request.summary)
        }
        guard response.isSuccess else {
            throw Self.checksumAware(await provider.error(for: response, request: request, path: nil))
        }
        // The whole answer must arrive: a connection lost after the status line leaves the chunk in doubt.
        do {
            _ = try await response.body.collect(upTo: 1 << 20)
        } catch {
            throw ProviderError.wrap(error, fallback: .network, request: request.summary)
        }
    }

    /// `MOVE …/.file` onto the destination, then the item as the server has it.
    func assemble(
        _ folder: URL, path: ItemPath, length: Int64, sha1: String, headers: HTTPHeaders, options: UploadOptions,
        exclusive: Bool
    ) async throws -> Item {
        guard let url = URL(string: folder.absoluteString + ".file") else {
            throw ProviderError(.invalidArgument, "cannot build the assembly URL")
        }
        var moveHeaders = headers
        moveHeaders.add(name: "OC-Checksum", value: OwnCloudChecksum.header(.sha1, sha1))
        moveHeaders.add(name: "Overwrite", value: exclusive ? "F" : "T")
        if let modified = options.modified { moveHeaders.add(name: "X-OC-Mtime", value: WebDAVProvider.ocMtime(modified)) }
        if let ifMatch = options.ifMatch { moveHeaders.add(name: "If-Match", value: ifMatch) }
        // A MOVE may be retried after a dropped connection: the server then answers 404 for the
        // folder that is already gone, and the item is checked below.
        let request = TransportRequest(method: .MOVE, url: url, headers: moveHeaders, isIdempotent: true)
        let response = try await provider.executor.execute(request)
        guard response.isSuccess else {
            throw Self.checksumAware(await provider.error(for: response, request: request, path: path) { status in
                status == 412 ? (exclusive && options.ifMatch == nil ? .alreadyExists : .preconditionFailed) : nil
            })
        }
        await response.body.discard()
        let item = try await provider.item(at: path)
        if let size = item.size, size != length {
            throw ProviderError(.integrity, "the server assembled \(size) bytes for \(path), not \(length)")
        }
        return try await provider.confirmUpload(item, at: path, sha1: sha1, modified: options.modified, answer: response.headers)
    }

    /// Deletes the upload folder and the chunks in it.
    /// A 400 whose message names a checksum ("The computed checksum does not match the one received
    /// from the client.") means the bytes arrived or were stored damaged: ``ProviderError/Code/integrity``.
    static func checksumAware(_ error: ProviderError) -> ProviderError {
        guard error.httpStatus == 400, error.message?.lowercased().contains("checksum") == true else { return error }
        var error = error
        error.code = .integrity
        return error
    }

    /// Runs outside the caller's task, so that it still happens when the upload was cancelled.
    func abort(_ folder: URL) async {
        let executor = provider.executor
        await Task.detached {
            let request = TransportRequest(method: .DELETE, url: folder)
            if let response = try? await executor.execute(request) { await response.body.discard() }
        }.value
    }
}

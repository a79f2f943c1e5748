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
///
/// Given an upload checkpoint (`ProviderServices.uploadCheckpoints` and a resume key), the
/// session (folder, destination, length, SHA-1, chunk size) is recorded too, so that a later
/// upload of the same content resumes without reading the content first: the folder's chunks
/// are checked against the record (numbers and sizes), and only the rest is read, from the
/// source's offset where it can start there (``resume(_:source:to:options:exclusive:)``).
/// A recorded upload keeps its folder when cancelled.
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
        _ source: any UploadSource, length: Int64, sha1: String, to path: ItemPath, options: UploadOptions, exclusive: Bool,
        checkpoint: UploadCheckpointer? = nil
    ) async throws -> Item {
        if exclusive, try await provider.itemIfExists(at: path) != nil {
            throw ProviderError(.alreadyExists, "\(path) already exists")
        }
        let destination = destinationURL(path)
        let id = Self.uploadID(user: dialect.user, destination: destination.absoluteString, length: length, sha1: sha1)
        let folder = try folderURL(id)
        let common = Self.headers(destination: destination, length: length)
        let session = NextcloudUploadSession(
            upload: id, destination: destination.absoluteString, length: length, sha1: sha1, chunkSize: dialect.chunkSize)
        do {
            let done = try await existingChunks(folder, headers: common)
            await checkpoint?.save(session)
            var reader = try PartReader(source: source, length: length, partSize: Int(dialect.chunkSize))
            _ = try await sendChunks(
                &reader, first: 1, length: length, folder: folder, done: done, headers: common, options: options,
                session: session, checkpoint: checkpoint)
            let item = try await assemble(folder, path: path, length: length, sha1: sha1, headers: common, options: options, exclusive: exclusive)
            await checkpoint?.remove()
            return item
        } catch let unavailable as ChunkingUnavailable {
            throw unavailable
        } catch {
            throw await failed(error, folder: folder, checkpoint: checkpoint)
        }
    }

    /// After a failure: a lost network leaves the chunks for a resume (and, when recorded, a
    /// cancellation too); any other failure deletes the upload folder and its record.
    func failed(_ error: any Error, folder: URL, checkpoint: UploadCheckpointer?) async -> ProviderError {
        let failure = ProviderError.wrap(error)
        if failure.code == .network { return failure }
        if checkpoint != nil, failure.code == .cancelled || Task.isCancelled { return failure }
        await checkpoint?.remove()
        await abort(folder)
        return failure
    }

    /// The upload folder `id` below the user's upload area.
    func folderURL(_ id: String) throws -> URL {
        guard let folder = URL(string: dialect.uploadsRoot.absoluteString + id + "/") else {
            throw ProviderError(.invalidArgument, "cannot build the upload folder URL")
        }
        return folder
    }

    /// `Destination` and `OC-Total-Length`, sent with every request of a chunked upload.
    static func headers(destination: URL, length: Int64) -> HTTPHeaders {
        var common = HTTPHeaders()
        common.add(name: "Destination", value: destination.absoluteString)
        common.add(name: "OC-Total-Length", value: String(length))
        return common
    }

    /// Continues the upload recorded by `checkpoint` when it is this content's, to this
    /// destination, and the server still holds its upload folder with the chunks as recorded:
    /// sends the chunks missing, from where the source can start (``UploadSource/makeStream(from:)``),
    /// and assembles the file with the SHA-1 recorded. `nil` when there is nothing to resume (a
    /// session of another content, or one the server forgot or reports differently, is dropped)
    /// or the source cannot start after the chunks held: the caller then uploads from the start.
    func resume(
        _ checkpoint: UploadCheckpointer, source: any UploadSource, to path: ItemPath, options: UploadOptions, exclusive: Bool
    ) async throws -> Item? {
        let destination = destinationURL(path)
        let session: NextcloudUploadSession
        switch await checkpoint.load(NextcloudUploadSession.self) {
        case .none:
            return nil
        case .stale(let other):
            // Another content's chunks for this destination: never reused.
            if let folder = try? folderURL(other.upload) { await abort(folder) }
            return nil
        case .resumable(let recorded):
            session = recorded
        }
        let folder = try folderURL(session.upload)
        let length = session.length
        guard source.length == length, session.destination == destination.absoluteString, session.chunkSize > 0 else {
            await checkpoint.remove()
            await abort(folder)
            return nil
        }
        if exclusive, try await provider.itemIfExists(at: path) != nil {
            throw ProviderError(.alreadyExists, "\(path) already exists")
        }
        let common = Self.headers(destination: destination, length: length)
        guard let held = try await heldChunks(folder), Self.verify(held, session: session) else {
            // Forgotten, or holding chunks the record cannot explain: start over cleanly.
            await checkpoint.remove()
            await abort(folder)
            return nil
        }
        let count = session.chunkCount
        var leading = 0
        while leading < count, held[leading + 1] != nil { leading += 1 }
        let offset = min(length, Int64(leading) * session.chunkSize)
        do {
            if leading < count {
                guard var reader = try PartReader(source: source, from: offset, length: length, partSize: Int(session.chunkSize))
                else { return nil }
                _ = try await sendChunks(
                    &reader, first: leading + 1, length: length, folder: folder, done: held, headers: common, options: options,
                    session: session, checkpoint: checkpoint)
            }
            let item = try await assemble(
                folder, path: path, length: length, sha1: session.sha1, headers: common, options: options, exclusive: exclusive)
            await checkpoint.remove()
            return item
        } catch {
            throw await failed(error, folder: folder, checkpoint: checkpoint)
        }
    }

    /// Whether the chunks `held` are chunks of `session`: numbered within its count, each of the
    /// size the chunk of that number has.
    static func verify(_ held: [Int: Int64], session: NextcloudUploadSession) -> Bool {
        held.allSatisfy { number, size in
            guard number >= 1, number <= session.chunkCount else { return false }
            let start = Int64(number - 1) * session.chunkSize
            return size == min(session.chunkSize, session.length - start)
        }
    }

    /// Chunk number → size of the chunks in the upload folder; `nil` when the server has no such folder.
    func heldChunks(_ folder: URL) async throws -> [Int: Int64]? {
        let request = Self.chunkListing(folder)
        let response = try await provider.executor.execute(request)
        if response.status == 404 {
            await response.body.discard()
            return nil
        }
        guard response.status == 207 else { throw await provider.error(for: response, request: request, path: nil) }
        return try Self.chunks(in: try await provider.collect(response, request: request, limit: 16 << 20))
    }

    /// `PROPFIND` `Depth: 1` of an upload folder: its chunks and their sizes.
    static func chunkListing(_ folder: URL) -> TransportRequest {
        var propfindHeaders = HTTPHeaders()
        propfindHeaders.add(name: "Depth", value: "1")
        propfindHeaders.add(name: "Content-Type", value: "application/xml; charset=utf-8")
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/></d:prop></d:propfind>
            """
        return TransportRequest(method: .PROPFIND, url: folder, headers: propfindHeaders, body: .bytes(ByteBuffer(string: body)))
    }

    /// The numbered chunks of an upload folder's listing, with their sizes.
    static func chunks(in data: Data) throws -> [Int: Int64] {
        var chunks: [Int: Int64] = [:]
        for entry in try MultistatusParser.parse(data) {
            let name = entry.href.split(separator: "/").last.map(String.init) ?? ""
            guard let number = Int(name), let size = entry.found[.getcontentlength].flatMap({ Int64($0.text) }) else { continue }
            chunks[number] = size
        }
        return chunks
    }

    /// Chunk number → size of the chunks already in the upload folder; creates the folder when missing.
    func existingChunks(_ folder: URL, headers: HTTPHeaders) async throws -> [Int: Int64] {
        if let held = try await heldChunks(folder) { return held }
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

    /// Reads the chunks of `reader` (the first numbered `first`), sending each one not already on
    /// the server; with a checkpoint, records each chunk the server acknowledged.
    func sendChunks(
        _ reader: inout PartReader, first: Int, length: Int64, folder: URL, done: [Int: Int64], headers: HTTPHeaders,
        options: UploadOptions, session: NextcloudUploadSession, checkpoint: UploadCheckpointer?
    ) async throws -> Int {
        var number = first
        var sent: Int64 = Int64(first - 1) * Int64(reader.partSize)
        var session = session
        options.progress?(TransferProgress(completed: sent, expected: length))

        func flush(_ chunk: ByteBuffer) async throws {
            let size = Int64(chunk.readableBytes)
            if done[number] == size {
                sent += size
            } else {
                try await putChunk(chunk, number: number, folder: folder, headers: headers, sentBefore: sent, total: length, options: options)
                sent += size
                if let checkpoint {
                    session.acknowledged = number
                    await checkpoint.save(session)
                }
            }
            options.progress?(TransferProgress(completed: sent, expected: length))
            number += 1
        }

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

/// A chunked upload as ``UploadCheckpointer`` records it: the upload folder, what is assembled
/// into which file, the content's SHA-1 (sent when the chunks are assembled, so that a resumed
/// upload need not read the content before the chunks held) and the chunk size.
struct NextcloudUploadSession: Codable, Sendable, Hashable {
    /// The record format's name.
    static let format = "nextcloud.chunking2.v1"

    var upload: String
    var destination: String
    var length: Int64
    var sha1: String
    var chunkSize: Int64
    var acknowledged: Int = 0

    var chunkCount: Int { chunkSize > 0 ? max(1, Int((length + chunkSize - 1) / chunkSize)) : 0 }
}

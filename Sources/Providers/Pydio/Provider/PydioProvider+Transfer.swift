import Foundation
import NIOCore
import ProviderAPI
import ProviderKit
import HTTPProviderKit

extension PydioProvider {
    public func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        if path.isRoot { throw ProviderError(.invalidArgument, "the root is a folder, not a file") }
        if options.ifMatch != nil || options.ifNoneMatch != nil { try capabilities.require(.preconditions, for: "download preconditions") }
        if options.range == nil, !options.resume, let listed = await listedFiles.take(path) {
            // The file as a listing described it: read without looking at it first, the answer
            // held to the listed size and modified time. Another file there, or none (nothing
            // reached the sink), is looked at below: read as it is now, or refused for what it is.
            do {
                return try await download(path, to: sink, options: options, answers: PydioDownloadAnswers(item: listed, listed: true))
            } catch let error as ProviderError where error.code == .preconditionFailed || error.code == .notFound {
                logger.debug("the listed file has changed; looking at it again", metadata: ["path": "\(path)", "reason": "\(error)"])
            }
        }
        let metadata = try await item(at: path)
        if metadata.kind == .folder { throw ProviderError(.invalidArgument, "\(path) is a folder, not a file") }
        return try await download(path, to: sink, options: options, answers: PydioDownloadAnswers(item: metadata))
    }

    /// One `download` of `path`, held to what `answers` knows of it (signed in again once when the session has lapsed).
    private func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions, answers: PydioDownloadAnswers) async throws -> DownloadResult {
        var replayed = false
        while true {
            let request = try await session.signedInRequest("download", parameters([("file", remote(path))]))
            do {
                return try await HTTPDownloader(executor: session.executor).download(
                    request, to: sink, options: options, expected: answers.item, dialect: answers)
            } catch let error as ProviderError where error.code == .unauthorized && !replayed {
                replayed = true
                try await session.renew(after: error)
            }
        }
    }

    /// Whether a download's 2xx answer is an error page: Pydio answers errors with 200 and an XML
    /// document, or an HTML page without an attachment. A 206 is content whatever its type: 8.2.5
    /// labels ranged answers `text/html`.
    static func isErrorPage(_ response: TransportResponse) -> Bool {
        guard response.status == 200 else { return false }
        let type = (response.headers.first(name: "content-type") ?? "").lowercased()
        if type.hasPrefix("text/xml") || type.hasPrefix("application/xml") { return true }
        return type.hasPrefix("text/html") && response.headers.first(name: "content-disposition") == nil
    }

    /// The error a download answered: the recognizer chain's reading of the body.
    static func downloadError(_ response: TransportResponse, body: ByteBuffer, request: String) -> ProviderError {
        guard (200..<300).contains(response.status) else {
            return ProviderError.http(status: response.status, request: request, retryAfter: response.retryAfter)
        }
        let answer = RecognizableAnswer(status: response.status, headers: response.headers, body: Data(body.readableBytesView), request: request)
        do {
            switch try PydioRecognizers.chain(PydioRecognizers.change).recognize(answer) {
            case .failure(let error), .signInRequired(let error): return error
            case .value: return ProviderError(.invalidResponse, "the download answered an XML document, not the file", request: request)
            }
        } catch let error as ProviderError {
            return error
        } catch {
            return ProviderError(.invalidResponse, "unreadable download answer", request: request)
        }
    }

    /// Pydio 8 answers `Range: bytes=a-b` with bytes `a` to `b-1`; asking one byte more gives the
    /// range wanted (a server without the quirk sends one byte too many, which is cut off).
    static func rangeHeader(_ range: ByteRange, size: Int64?) -> String {
        switch range {
        case .bytes(let bounds): return "bytes=\(bounds.lowerBound)-\(bounds.upperBound + 1)"
        case .from(let offset): return size.map { "bytes=\(offset)-\($0)" } ?? "bytes=\(offset)-"
        case .suffix(let count): return size.map { "bytes=\(max(0, $0 - count))-\($0)" } ?? "bytes=-\(count)"
        }
    }

    public func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        if let path = try? folder.appending(name) { _ = await listedFiles.take(path) }
        do {
            return try await store(source, to: folder, name: name, options: options)
        } catch {
            throw ProviderError.wrap(error)
        }
    }

    private func store(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        try ItemPath.validate(name: name)
        if options.ifMatch != nil { try capabilities.require(.preconditions, for: "If-Match preconditions") }
        guard capabilities.names.accepts(name) else {
            throw ProviderError(.invalidArgument, "Pydio refuses the name \(name.debugDescription); encode it with NameEncoder")
        }
        // The folder is not looked at first (a listing per file): an upload into a folder that is
        // missing or a file fails on the server, and only then is the folder looked at, for the reason.
        var source = source
        var spooled: URL?
        if source.length == nil {
            let url = try await TemporarySpool.spool(source)
            spooled = url
            source = try FileSource(url: url)
        }
        defer { if let spooled { try? FileManager.default.removeItem(at: spooled) } }
        let length = source.length ?? 0
        // Nothing is written exclusively: a name is looked at, then written. A non-empty upload is
        // renamed by the server (`auto_rename`); `mkfile` has no such option, so an empty file
        // tries the next free name here, numbered as the server numbers (`name-1.ext`).
        let empty = length == 0
        do {
            return try await place(source, length: length, empty: empty, to: folder, name: name, options: options)
        } catch {
            // A name seen taken, or a stale `ifMatch`, was judged in a folder that is there.
            if Task.isCancelled || [.alreadyExists, .preconditionFailed, .cancelled].contains(ProviderError.wrap(error).code) { throw error }
            throw await folderError(folder) ?? error
        }
    }

    /// Why an upload into `folder` failed, when the folder is the cause: `notFound` when there is
    /// none, `invalidArgument` when it is a file; `nil` when it is a folder or cannot be told.
    func folderError(_ folder: ItemPath) async -> ProviderError? {
        if folder.isRoot { return nil }
        do {
            let parent = try await item(at: folder)
            return parent.kind == .folder ? nil : ProviderError(.invalidArgument, "\(folder) is a file, not a folder")
        } catch let error as ProviderError where error.code == .notFound {
            return ProviderError(.notFound, "the folder \(folder) does not exist", request: error.request)
        } catch {
            return nil
        }
    }

    /// Stores `source` (of `length` bytes, known) as `name` in `folder` under the upload's conflict rules.
    private func place(
        _ source: any UploadSource, length: Int64, empty: Bool, to folder: ItemPath, name: String, options: UploadOptions
    ) async throws -> Item {
        try await UploadPlacement.place(
            name, in: folder, options: options, checks: empty ? [] : [.renames],
            candidate: { name, attempt in attempt == 0 ? name : Self.numbered(name, attempt) },
            existing: { candidate in
                let path = try folder.appending(candidate)
                return try await node(at: path).map { item($0, at: path) }
            },
            write: { candidate, placement in
                let target = try folder.appending(candidate)
                let change: PydioChange
                if empty {
                    // The server refuses an empty upload ("You must select a file (410)", recording 46); mkfile makes one.
                    change = try await makeEmptyFile(in: folder, name: candidate, replacing: placement == .replace)
                } else if length > Int64(settings.chunkSize) {
                    change = try await uploadInParts(source, length: length, to: folder, name: candidate, options: options)
                } else {
                    change = try await uploadPart(
                        source, to: folder, name: candidate, extra: options.conflict == .rename ? [("auto_rename", "true")] : [],
                        progress: options.progress)
                }
                let stored = change.added.first ?? change.updated.first
                guard let node = stored, let path = local(node.path) else {
                    // Some servers answer a successful upload without a diff: look the file up.
                    guard let found = try await node(at: target) else { throw ProviderError(.invalidResponse, "the upload of \(target) left no file") }
                    return item(found, at: target)
                }
                return item(node, at: path)
            })
    }

    /// An empty file through `mkfile` (no `content`; recording 47). `mkfile` refuses an existing
    /// name unless forced (`replacing`) and has no `auto_rename`.
    func makeEmptyFile(in folder: ItemPath, name: String, replacing: Bool) async throws -> PydioChange {
        var parameters = [("dir", remote(folder)), ("filename", Self.wire(name))]
        if replacing { parameters.append(("force", "true")) }
        return try await write("mkfile", parameters)
    }

    /// `name-1.ext`, `name-2.ext`… (before the last dot, none for a dot-less name): the server's `auto_rename` numbering.
    static func numbered(_ name: String, _ index: Int) -> String {
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return "\(name[..<dot])-\(index)\(name[dot...])"
        }
        return "\(name)-\(index)"
    }

    /// One `upload` request (`xhr_uploader=true`, the name in `urlencoded_filename`).
    func uploadPart(
        _ source: any UploadSource, to folder: ItemPath, name: String, extra: [(String, String)], progress: ProgressHandler?
    ) async throws -> PydioChange {
        let body = MultipartFileSource(file: source, field: "userfile_0", fileName: Self.wire(name), mimeType: MIMETypes.guess(name))
        var replayed = false
        while true {
            var request = try await session.signedInRequest(
                "upload",
                parameters([("dir", remote(folder)), ("xhr_uploader", "true"), ("urlencoded_filename", PercentEncoding.formEncode(Self.wire(name)))] + extra),
                post: false)
            request.method = .POST
            request.isIdempotent = false
            request.headers.replaceOrAdd(name: "Content-Type", value: body.contentType)
            request.body = .source(body)
            if let progress, let fileLength = source.length {
                // Report the file's bytes, not the multipart framing around them.
                let framing = Int64(body.prefix.readableBytes)
                request.uploadProgress = { sent in
                    progress(TransferProgress(completed: min(max(0, sent.completed - framing), fileLength), expected: fileLength))
                }
            }
            let answer = try await session.read(request)
            if answer.isEmpty {
                // No XML at all: a name the server drops (a leading dot) or an upload it refused silently.
                throw ProviderError(.invalidArgument, "the server did not store \(name.debugDescription)", request: answer.request)
            }
            switch try PydioRecognizers.chain(PydioRecognizers.change).recognize(answer) {
            case .value(let change): return change
            case .failure(let error):
                if error.code == .forbidden, try await node(at: folder) == nil {
                    throw ProviderError(.notFound, "the folder \(folder) does not exist", request: answer.request)
                }
                throw error
            case .signInRequired(let error):
                guard !replayed, source.isReplayable else { throw error }
                replayed = true
                try await session.renew(after: error)
            }
        }
    }

    /// A large file in parts: the first creates `<name>.dlpart`, the next ones append to it, and the
    /// server renames it to `<name>` when it reaches the declared size.
    ///
    /// With an upload checkpoint (`ProviderServices.uploadCheckpoints` and a resume key), the parts
    /// the server acknowledged are recorded; a later upload of the same content to the same place
    /// looks at the `.dlpart` the server holds and, when its size is one the record allows, appends
    /// only the rest (see ``resumeOffset(_:folder:name:length:)``).
    func uploadInParts(_ source: any UploadSource, length: Int64, to folder: ItemPath, name: String, options: UploadOptions) async throws -> PydioChange {
        // `auto_rename` may store the parts under another name: such an upload is not resumed.
        let checkpoint = options.conflict == .rename
            ? nil
            : UploadCheckpointer(
                store: uploadCheckpoints, account: account, destination: try folder.appending(name), options: options,
                format: PydioUploadSession.format)
        var session = PydioUploadSession(partSize: settings.chunkSize, length: length, acknowledged: 0)
        if let checkpoint, let resumed = await resumeOffset(checkpoint, folder: folder, name: name, length: length) {
            session = resumed
        } else {
            await checkpoint?.save(session)
        }
        let partSize = session.partSize
        let start = session.acknowledged
        var reader: PartReader
        if start > 0, let rest = try PartReader(source: source, from: start, length: length, partSize: partSize) {
            reader = rest
        } else {
            let first = Int(start / Int64(partSize))
            let last = Int(max(0, length - 1) / Int64(partSize))
            reader = try PartReader(source: source, length: length, partSize: partSize, only: start > 0 ? Set(first...last) : nil)
        }
        var last = try PydioChange(XMLElementTree(name: "tree"))
        var sent = start
        do {
            while let part = try await reader.next()?.bytes {
                var extra: [(String, String)] = [("partial_upload", "true"), ("partial_target_bytesize", String(length))]
                if sent > 0 { extra.append(("appendto_urlencoded_part", PercentEncoding.formEncode(Self.wire(name)))) }
                if options.conflict == .rename, sent == 0 { extra.append(("auto_rename", "true")) }
                let offset = sent
                let report: ProgressHandler? = options.progress.map { handler in
                    { @Sendable p in handler(TransferProgress(completed: offset + p.completed, expected: length)) }
                }
                let partLength = Int64(part.readableBytes)
                // The part goes out as it is (no copy); once sent, nothing else holds it and the reader refills it.
                last = try await uploadPart(DataSource(buffer: part), to: folder, name: name, extra: extra, progress: report)
                sent += partLength
                if sent < length, let checkpoint {
                    session.acknowledged = sent
                    await checkpoint.save(session)
                }
            }
        } catch {
            let failure = ProviderError.wrap(error)
            // A lost network or a cancellation keeps the record: the `.dlpart` stays for a later upload.
            if !(failure.code == .network || failure.code == .cancelled || Task.isCancelled) { await checkpoint?.remove() }
            throw failure
        }
        await checkpoint?.remove()
        return last
    }

    /// The recorded session of this content, when the server's `.dlpart` holds what the record
    /// allows: the parts acknowledged, or one more (a part whose answer was lost). Otherwise `nil`,
    /// and the upload starts over (its first part replaces the `.dlpart`).
    func resumeOffset(_ checkpoint: UploadCheckpointer, folder: ItemPath, name: String, length: Int64) async -> PydioUploadSession? {
        guard case .resumable(var session) = await checkpoint.load(PydioUploadSession.self) else { return nil }
        let part = Int64(session.partSize)
        guard session.length == length, part > 0, let partPath = try? folder.appending(name + ".dlpart"),
            let node = try? await node(at: partPath), node.isFile,
            node.path.unicodeScalars.elementsEqual(remote(partPath).unicodeScalars), let held = node.size,
            held > 0, held < length, held % part == 0, held == session.acknowledged || held == session.acknowledged + part
        else {
            await checkpoint.remove()
            return nil
        }
        session.acknowledged = held
        return session
    }
}

/// A Pydio upload in parts as ``UploadCheckpointer`` records it: the part size, the file's length
/// and how many bytes the server acknowledged into the `.dlpart`.
struct PydioUploadSession: Codable, Sendable, Hashable {
    /// The record format's name.
    static let format = "pydio.parts.v1"

    var partSize: Int
    var length: Int64
    var acknowledged: Int64
}

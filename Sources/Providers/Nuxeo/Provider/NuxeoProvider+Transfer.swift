import Foundation
import NIOCore
import ProviderAPI
import ProviderKit
import HTTPProviderKit

extension NuxeoProvider {
    public func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        if path.isRoot { throw ProviderError(.invalidArgument, "the root is a folder, not a file") }
        if options.ifMatch == nil, options.ifNoneMatch == nil, !options.resume, let listed = await resolver.takeListed(path) {
            do {
                return try await download(listed.file, uid: listed.uid, to: sink, options: options)
            } catch let error as ProviderError where error.code == .preconditionFailed || error.code == .notFound {
                // Replaced or gone since it was listed (nothing reached the sink): the path is
                // looked up afresh below, and what is there now is read and checked against its
                // own document, or the download fails with notFound.
                logger.debug("the listed file has changed; looking it up again", metadata: ["path": "\(path)", "reason": "\(error)"])
            }
        }
        let document = try await resolver.document(at: path)
        if document.isFolderish { throw ProviderError(.invalidArgument, "\(path) is a folder, not a file") }
        let item = mapper.item(from: document, at: path)
        // Documents have a change token, not an HTTP etag: preconditions are checked against it here.
        if let ifMatch = options.ifMatch, ifMatch != item.etag {
            throw ProviderError(.preconditionFailed, "\(path) has changed (change token \(item.etag ?? "none"), expected \(ifMatch))")
        }
        if let ifNoneMatch = options.ifNoneMatch, ifNoneMatch == "*" || ifNoneMatch == item.etag {
            return DownloadResult(item: item, notModified: true, bytesReceived: 0)
        }
        guard document.blob(at: mapper.blobXPath) != nil else {
            // A File document without content reads as empty.
            try await sink.begin(offset: 0, expectedLength: 0, validator: nil)
            try await sink.finish()
            return DownloadResult(item: item, bytesReceived: 0)
        }
        var downloadOptions = options
        downloadOptions.ifMatch = nil
        downloadOptions.ifNoneMatch = nil
        // Nuxeo ignores If-Range, so a partial download is continued only when its validator (the
        // blob ETag, the quoted digest) is the current digest: bytes without one, or with a date,
        // or of a blob without a digest are of unknown content and the download starts over.
        if options.resume, options.range == nil, let point = try await sink.resumePoint(), point.length > 0 {
            let digest = document.blob(at: mapper.blobXPath)?.digest
            let held = point.validator?.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if digest == nil || held != digest { downloadOptions.resume = false }
        }
        var expected = item
        expected.etag = nil
        let request = try client.blobRequest(uid: document.uid, xpath: mapper.blobXPath)
        return try await HTTPDownloader(executor: client.executor).download(
            request, to: sink, options: downloadOptions, expected: expected, dialect: NuxeoDownloadAnswers(item: item))
    }

    /// Reads the blob of the file a listing described, by the uid the listing gave, in one
    /// request: the answer must be the content the listing saw. Its `ETag` (the blob's digest,
    /// quoted) must be the listed digest, else nothing reaches the sink and the download fails with
    /// `preconditionFailed`; a document deleted since is `notFound`. The body is checked against the
    /// listed size and digest (an answer from a blob store the server redirected to, whose `ETag`
    /// is its own, is held to those alone).
    private func download(_ listed: NuxeoPathResolver.ListedFile, uid: String, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        var expected = listed.item
        expected.etag = nil
        let request = try client.blobRequest(uid: uid, xpath: mapper.blobXPath)
        let dialect = NuxeoDownloadAnswers(item: listed.item, listed: (digest: listed.digest, url: request.url))
        return try await HTTPDownloader(executor: client.executor).download(request, to: sink, options: options, expected: expected, dialect: dialect)
    }

    public func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        try ItemPath.validate(name: name)
        // A folder whose uid is known is checked in the search for the name (one request, not
        // two); one that no longer holds at its path is looked up afresh, and the name searched again.
        var known = folder.isRoot ? nil : await resolver.cachedFolderUid(folder)
        var parent: String
        if let known { parent = known } else { parent = try await folderUid(folder) }
        // Nuxeo creates no document exclusively: each name is looked up (by its title, as the
        // folder shows it), then written; a stale `ifMatch` is refused by the server too.
        var seen: NuxeoDocument?
        return try await UploadPlacement.place(
            name, in: folder, options: options, maxAttempts: 1000,
            existing: { candidate in
                if known != nil {
                    known = nil
                    let found = try await resolver.child(named: candidate, of: parent, checking: folder)
                    if found.folderHolds {
                        seen = found.child
                        return try seen.map { mapper.item(from: $0, at: try folder.appending(candidate)) }
                    }
                    await resolver.forget(folder)
                    parent = try await folderUid(folder)
                }
                seen = try await resolver.child(named: candidate, of: parent, byServerName: false)
                return try seen.map { mapper.item(from: $0, at: try folder.appending(candidate)) }
            },
            write: { candidate, placement in
                if placement == .replace, let existing = seen {
                    return try await replaceFile(existing, with: source, at: try folder.appending(candidate), options: options)
                }
                return try await createFile(source, named: candidate, in: folder, parent: parent, options: options)
            })
    }

    /// Uploads `source` into a batch of its own and creates a `File` document from it.
    func createFile(_ source: any UploadSource, named name: String, in folder: ItemPath, parent: String, options: UploadOptions) async throws -> Item {
        let checkpoint = checkpointer(for: try folder.appending(name), options: options)
        let batch = try await uploader.upload(
            source, fileName: name, mimeType: options.mimeType ?? MIMETypes.guess(name), progress: options.progress,
            checkpoint: checkpoint)
        do {
            let item = try await createFile(fromBatch: batch, named: name, in: folder, parent: parent)
            await checkpoint?.remove()
            return item
        } catch {
            try await dropBatch(batch, after: error, checkpoint: checkpoint)
        }
    }

    /// Replaces the content of `existing`; with `ifMatch`, the server refuses a stale change token.
    func replaceFile(_ existing: NuxeoDocument, with source: any UploadSource, at path: ItemPath, options: UploadOptions) async throws -> Item {
        let checkpoint = checkpointer(for: path, options: options)
        let batch = try await uploader.upload(
            source, fileName: path.name, mimeType: options.mimeType ?? MIMETypes.guess(path.name), progress: options.progress,
            checkpoint: checkpoint)
        do {
            let item = try await replaceContent(of: existing, fromBatch: batch, at: path, ifMatch: options.ifMatch)
            await checkpoint?.remove()
            return item
        } catch {
            try await dropBatch(batch, after: error, checkpoint: checkpoint)
        }
    }

    /// The checkpoint of a resumable upload to `path`, when the services have a store and the
    /// options a resume key.
    func checkpointer(for path: ItemPath, options: UploadOptions) -> UploadCheckpointer? {
        UploadCheckpointer(
            store: uploadCheckpoints, account: account, destination: path, options: options, format: NuxeoUploadSession.format)
    }

    /// After the document could not be made from a complete batch: a recorded batch is kept when
    /// the network was lost (a later upload attaches it without sending it again); otherwise it is dropped.
    private func dropBatch(_ batch: String, after error: any Error, checkpoint: UploadCheckpointer?) async throws -> Never {
        let failure = ProviderError.wrap(error)
        if checkpoint != nil, failure.code == .network || failure.code == .cancelled { throw failure }
        await checkpoint?.remove()
        try? await client.deleteBatch(batch)
        throw failure
    }

    /// A new `File` document whose content is the batch's file.
    private func createFile(fromBatch batch: String, named name: String, in folder: ItemPath, parent: String) async throws -> Item {
        let draft = NuxeoDocumentDraft.create(
            name: name, type: "File", properties: ["dc:title": .string(name), mapper.blobXPath: Self.batchReference(batch)])
        let document = try await client.create(draft, in: parent)
        let path = try folder.appending(name)
        await resolver.remember(path, uid: document.uid, isFolder: false)
        return mapper.item(from: document, at: path)
    }

    /// Points `existing` at the batch's file; a stale `ifMatch` is `preconditionFailed`.
    private func replaceContent(of existing: NuxeoDocument, fromBatch batch: String, at path: ItemPath, ifMatch: String?) async throws -> Item {
        var draft = NuxeoDocumentDraft(properties: [mapper.blobXPath: Self.batchReference(batch)])
        if let ifMatch {
            draft.uid = existing.uid
            draft.changeToken = ifMatch
        }
        do {
            let document = try await client.update(draft, uid: existing.uid)
            await resolver.remember(path, uid: document.uid, isFolder: false)
            return mapper.item(from: document, at: path)
        } catch var error as ProviderError where ifMatch != nil && error.code == .conflict {
            error.code = .preconditionFailed
            throw error
        }
    }

    static func batchReference(_ batch: String) -> JSONValue { ["upload-batch": .string(batch), "upload-fileId": "0"] }

    /// Uploads `source` into an upload batch (in chunks when large) and returns the batch id, for
    /// ``attach(batch:named:in:options:)`` or Automation operations that take a batch
    /// (`FileManager.Import`, `Blob.AttachOnDocument`).
    ///
    /// Pass a `batch` from ``NuxeoClient/createBatch()`` to make the upload resumable: when the call
    /// fails (a crash, a lost network), calling again with the same batch and source asks the server
    /// which chunks it has and sends only the others. A batch is cleared by the first document that uses it.
    package func uploadBatch(
        _ source: any UploadSource, into batch: String? = nil, fileName: String, mimeType: String? = nil,
        progress: ProgressHandler? = nil
    ) async throws -> String {
        try await uploader.upload(
            source, into: batch, fileName: fileName, mimeType: mimeType ?? MIMETypes.guess(fileName), progress: progress)
    }

    /// Makes a file named `name` in `folder` from the content of an upload batch, under the same
    /// conflict rules as ``upload(_:to:name:options:)`` (`.rename` is taken as `.fail`).
    ///
    /// - Throws: `ProviderError.Code.notFound` when the batch holds no file (used or expired),
    ///   `ProviderError.Code.conflict` when its upload is not complete.
    package func attach(batch: String, named name: String, in folder: ItemPath, options: UploadOptions = UploadOptions()) async throws -> Item {
        try ItemPath.validate(name: name)
        let parent = try await folderUid(folder)
        let path = try folder.appending(name)
        // Nuxeo attaches nothing, silently, from a batch that was used or expired: ask first.
        let status: (complete: Bool, chunks: Set<Int>)
        do {
            status = try await client.batchFileStatus(batch: batch)
        } catch let error as ProviderError where error.code == .notFound {
            throw ProviderError(.notFound, "the batch holds no file: it was used already, or has expired", httpStatus: error.httpStatus)
        }
        guard status.complete else { throw ProviderError(.conflict, "the batch's upload is not complete; resume it first") }
        // `.rename` is taken as `.fail`: the batch is attached under the name asked for or not at all.
        var rules = options
        if rules.conflict == .rename { rules.conflict = .fail }
        let existing = try await resolver.child(named: name, of: parent, byServerName: false)
        let placement = try UploadPlacement.decide(existing: existing.map { mapper.item(from: $0, at: path) }, options: rules, path: path)
        if placement == .replace, let existing {
            return try await replaceContent(of: existing, fromBatch: batch, at: path, ifMatch: options.ifMatch)
        }
        return try await createFile(fromBatch: batch, named: name, in: folder, parent: parent)
    }

    var uploader: NuxeoBatchUploader { NuxeoBatchUploader(client: client, chunkSize: settings.chunkSize) }
}

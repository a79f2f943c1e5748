import Foundation
import NIOCore
import ProviderAPI

extension NuxeoProvider {
    public func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        if path.isRoot { throw ProviderError(.invalidArgument, "the root is a folder, not a file") }
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
        // Nuxeo ignores If-Range, so a partial download of older content must not be continued:
        // its validator (the blob ETag, the quoted digest) must be the current digest.
        if options.resume, options.range == nil, let point = try await sink.resumePoint(), point.length > 0,
            let validator = point.validator, let digest = document.blob(at: mapper.blobXPath)?.digest,
            validator.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) != digest
        {
            downloadOptions.resume = false
        }
        var expected = item
        expected.etag = nil
        let request = try client.blobRequest(uid: document.uid, xpath: mapper.blobXPath)
        let summary = request.summary
        return try await HTTPDownloader(executor: client.executor).download(
            request, to: sink, options: downloadOptions, expected: expected,
            errorFor: { response, body in
                NuxeoErrorMapper.error(
                    status: response.status, body: Data(body.readableBytesView), request: summary, retryAfter: response.retryAfter)
            },
            itemFor: { _ in item })
    }

    public func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        try ItemPath.validate(name: name)
        let parent = try await folderUid(folder)
        switch options.conflict {
        case .fail:
            if try await resolver.child(named: name, of: parent, byServerName: false) != nil {
                throw ProviderError(.alreadyExists, "\(try folder.appending(name)) already exists")
            }
            if options.ifMatch != nil { throw ProviderError(.preconditionFailed, "\(try folder.appending(name)) does not exist") }
            return try await createFile(source, named: name, in: folder, parent: parent, options: options)
        case .overwrite:
            if let existing = try await resolver.child(named: name, of: parent, byServerName: false) {
                if existing.isFolderish {
                    throw ProviderError(.alreadyExists, "\(try folder.appending(name)) is a folder")
                }
                return try await replaceFile(existing, with: source, at: try folder.appending(name), options: options)
            }
            if options.ifMatch != nil { throw ProviderError(.preconditionFailed, "\(try folder.appending(name)) does not exist") }
            return try await createFile(source, named: name, in: folder, parent: parent, options: options)
        case .rename:
            for attempt in 0..<1000 {
                let candidate = ConflictNames.candidate(name, attempt: attempt)
                if try await resolver.child(named: candidate, of: parent, byServerName: false) != nil { continue }
                return try await createFile(source, named: candidate, in: folder, parent: parent, options: options)
            }
            throw ProviderError(.alreadyExists, "no free name for \(name) after 1000 attempts")
        }
    }

    /// Uploads `source` into a batch of its own and creates a `File` document from it.
    func createFile(_ source: any UploadSource, named name: String, in folder: ItemPath, parent: String, options: UploadOptions) async throws -> Item {
        let mimeType = options.mimeType ?? MIMETypes.guess(name)
        let batch = try await uploader.upload(source, fileName: name, mimeType: mimeType, progress: options.progress)
        let draft = NuxeoDocumentDraft.create(
            name: name, type: "File",
            properties: ["dc:title": .string(name), mapper.blobXPath: ["upload-batch": .string(batch), "upload-fileId": "0"]])
        let document: NuxeoDocument
        do {
            document = try await client.create(draft, in: parent)
        } catch {
            try? await client.deleteBatch(batch)
            throw error
        }
        let path = try folder.appending(name)
        await resolver.remember(path, uid: document.uid, isFolder: false)
        return mapper.item(from: document, at: path)
    }

    /// Replaces the content of `existing`; with `ifMatch`, the server refuses a stale change token.
    func replaceFile(_ existing: NuxeoDocument, with source: any UploadSource, at path: ItemPath, options: UploadOptions) async throws -> Item {
        let mimeType = options.mimeType ?? MIMETypes.guess(path.name)
        let batch = try await uploader.upload(source, fileName: path.name, mimeType: mimeType, progress: options.progress)
        var draft = NuxeoDocumentDraft(properties: [mapper.blobXPath: ["upload-batch": .string(batch), "upload-fileId": "0"]])
        if let ifMatch = options.ifMatch {
            draft.uid = existing.uid
            draft.changeToken = ifMatch
        }
        do {
            let document = try await client.update(draft, uid: existing.uid)
            await resolver.remember(path, uid: document.uid, isFolder: false)
            return mapper.item(from: document, at: path)
        } catch var error as ProviderError {
            try? await client.deleteBatch(batch)
            if options.ifMatch != nil, error.code == .conflict { error.code = .preconditionFailed }
            throw error
        }
    }

    /// Uploads `source` into a new batch (in chunks when large) and returns the batch id, for
    /// Automation operations that take a batch (`FileManager.Import`, `Blob.AttachOnDocument`).
    /// A batch is cleared by the first document that uses it.
    public func uploadBatch(
        _ source: any UploadSource, fileName: String, mimeType: String? = nil, progress: ProgressHandler? = nil
    ) async throws -> String {
        try await uploader.upload(source, fileName: fileName, mimeType: mimeType ?? MIMETypes.guess(fileName), progress: progress)
    }

    var uploader: NuxeoBatchUploader { NuxeoBatchUploader(client: client, chunkSize: settings.chunkSize) }
}

import Foundation
import NIOCore
import ProviderAPI
import ProviderKit
import HTTPProviderKit

/// Sends a file into a Nuxeo upload batch: in one request when it is small, in chunks with
/// resume when it is large.
///
/// Each file gets a batch of its own, so the batch-drop rule (a batch is cleared as soon as a
/// document uses it) never loses a second file. Chunks are read one at a time, so memory stays
/// at one chunk whatever the file size. After the last chunk the uploader asks the server which
/// chunks it holds (`GET /upload/{batch}/0`) and sends again only the missing ones, so a chunk
/// lost in transit, or a chunk request that failed for good, costs one chunk, not the file.
/// Given the batch of an earlier attempt, it asks first and sends only the chunks missing, so an
/// upload cut off by a crash or a lost network continues where it stopped.
struct NuxeoBatchUploader: Sendable {
    let client: NuxeoClient
    let chunkSize: Int
    /// Rounds of re-sending missing chunks before giving up.
    let resumeRounds = 3

    /// Uploads `source` as file `0` of `batch` (a new batch when `nil`) and returns the batch id.
    ///
    /// A batch passed in is kept when the upload fails, so that a later call with it resumes; a
    /// batch made here is deleted, unless `checkpoint` records it: then a lost network or a
    /// cancellation keeps it (and its record) for a later upload of the same content, which asks
    /// the server what the batch holds and sends only the chunks missing (see ``resume(_:source:length:fileName:)``).
    func upload(
        _ source: any UploadSource, into given: String? = nil, fileName: String, mimeType: String, progress: ProgressHandler?,
        checkpoint: UploadCheckpointer? = nil
    ) async throws -> String {
        guard let length = source.length else {
            // Nuxeo needs the size up front (X-File-Size, chunk counts): spool to a temporary file first.
            let spooled = try await TemporarySpool.spool(source)
            defer { try? FileManager.default.removeItem(at: spooled) }
            return try await upload(
                try FileSource(url: spooled), into: given, fileName: fileName, mimeType: mimeType, progress: progress,
                checkpoint: checkpoint)
        }
        let checkpoint = given == nil && length > Int64(chunkSize) ? checkpoint : nil
        var session: NuxeoUploadSession?
        if let checkpoint { session = await resume(checkpoint, source: source, length: length, fileName: fileName) }
        let batch: String
        if let given {
            batch = given
        } else if let session {
            batch = session.batch
        } else {
            batch = try await client.createBatch()
        }
        let current = session ?? NuxeoUploadSession(batch: batch, fileName: fileName, length: length, chunkSize: chunkSize)
        if session == nil, let checkpoint { await checkpoint.save(current) }
        do {
            progress?(TransferProgress(completed: 0, expected: length))
            if length <= Int64(current.chunkSize) {
                try await single(source, length: length, batch: batch, fileName: fileName, mimeType: mimeType, progress: progress)
            } else {
                try await chunked(
                    source, length: length, batch: batch, resuming: given != nil || session != nil, fileName: fileName,
                    mimeType: mimeType, progress: progress, session: current, checkpoint: checkpoint)
            }
            progress?(TransferProgress(completed: length, expected: length))
            return batch
        } catch {
            let failure = ProviderError.wrap(error)
            if let checkpoint {
                // A lost network or a cancellation keeps the batch for a later upload of this content.
                if failure.code == .network || failure.code == .cancelled || Task.isCancelled { throw failure }
                await checkpoint.remove()
            }
            if given == nil { try? await client.deleteBatch(batch) }
            throw failure
        }
    }

    /// The recorded session of this content, if the server still holds its batch as recorded;
    /// otherwise `nil`, after dropping whatever the server kept of it (start over cleanly).
    func resume(_ checkpoint: UploadCheckpointer, source: any UploadSource, length: Int64, fileName: String) async -> NuxeoUploadSession? {
        switch await checkpoint.load(NuxeoUploadSession.self) {
        case .none:
            return nil
        case .stale(let other):
            // Another content's batch for this destination: never reused.
            try? await client.deleteBatch(other.batch)
            return nil
        case .resumable(let session):
            let count = session.chunkCount
            guard session.length == length, session.fileName == fileName, session.chunkSize > 0,
                let state = try? await client.batchFileState(batch: session.batch),
                state.size == length, state.chunkCount == count, state.chunks.allSatisfy({ (0..<count).contains($0) })
            else {
                // Forgotten (expired, used) or reported differently: start over with a new batch.
                try? await client.deleteBatch(session.batch)
                await checkpoint.remove()
                return nil
            }
            return session
        }
    }
    private func single(
        _ source: any UploadSource, length: Int64, batch: String, fileName: String, mimeType: String, progress: ProgressHandler?
    ) async throws {
        var request = try client.batchUploadRequest(batch: batch, fileName: fileName, mimeType: mimeType, fileSize: length)
        request.body = .source(source)
        request.headers.replaceOrAdd(name: "Content-Length", value: String(length))
        request.uploadProgress = progress
        let answer = try await send(request)
        guard answer.status == 200 || answer.status == 201 else {
            throw ProviderError(.invalidResponse, "the batch answered \(answer.status) to a whole file", httpStatus: answer.status)
        }
    }

    private func chunked(
        _ source: any UploadSource, length: Int64, batch: String, resuming: Bool, fileName: String, mimeType: String,
        progress: ProgressHandler?, session: NuxeoUploadSession, checkpoint: UploadCheckpointer?
    ) async throws {
        let chunkSize = session.chunkSize
        let count = session.chunkCount
        var complete = false
        var failures = 0
        var wanted: Set<Int>?
        if resuming {
            do {
                let status = try await client.batchFileStatus(batch: batch)
                if status.complete { return }
                wanted = Set(0..<count).subtracting(status.chunks)
            } catch let error as ProviderError where error.code == .notFound {
                wanted = nil  // nothing of this file arrived yet
            }
        }
        var reader = try partReader(source, length: length, chunkSize: chunkSize, only: wanted)
        var acknowledged = session
        while let part = try await reader.next() {
            let (index, chunk, offset) = (part.index, part.bytes, part.offset)
            let report: ProgressHandler? = progress.map { handler in
                { @Sendable p in handler(TransferProgress(completed: offset + p.completed, expected: length)) }
            }
            do {
                let answer = try await sendChunk(
                    chunk, index: index, count: count, length: length, batch: batch, fileName: fileName, mimeType: mimeType,
                    progress: report)
                if answer.status == 201 { complete = true }
                failures = 0
                if let checkpoint {
                    acknowledged.acknowledged.insert(index)
                    await checkpoint.save(acknowledged)
                }
            } catch let error as ProviderError where error.code == .network {
                failures += 1
                if failures >= 3 { throw error }
            }
        }
        var rounds = 0
        while true {
            let status = try await client.batchFileStatus(batch: batch)
            if status.complete || (complete && status.chunks.count == count) { return }
            let missing = Set(0..<count).subtracting(status.chunks)
            if missing.isEmpty { return }
            rounds += 1
            guard rounds <= resumeRounds, source.isReplayable else {
                throw ProviderError(.network, "the server is missing \(missing.count) of \(count) chunks of \(fileName)")
            }
            var again = try PartReader(source: source, length: length, partSize: chunkSize, only: missing)
            while let part = try await again.next() {
                _ = try await sendChunk(
                    part.bytes, index: part.index, count: count, length: length, batch: batch, fileName: fileName, mimeType: mimeType,
                    progress: nil)
            }
        }
    }

    /// A reader of the chunks `only` (all when `nil`): from the first of them where the source can
    /// start there, else from the start, skipping the chunks the server holds.
    private func partReader(_ source: any UploadSource, length: Int64, chunkSize: Int, only: Set<Int>?) throws -> PartReader {
        if let first = only?.min(), first > 0,
            let reader = try PartReader(source: source, from: Int64(first) * Int64(chunkSize), length: length, partSize: chunkSize, only: only)
        {
            return reader
        }
        return try PartReader(source: source, length: length, partSize: chunkSize, only: only)
    }

    private func sendChunk(
        _ chunk: ByteBuffer, index: Int, count: Int, length: Int64, batch: String, fileName: String, mimeType: String,
        progress: ProgressHandler?
    ) async throws -> (status: Int, json: JSONValue) {
        var request = try client.batchUploadRequest(
            batch: batch, fileName: fileName, mimeType: mimeType, fileSize: length, chunk: (index, count))
        request.body = .bytes(chunk)
        request.uploadProgress = progress
        return try await send(request)
    }

    private func send(_ request: TransportRequest) async throws -> (status: Int, json: JSONValue) {
        let response = try await client.executor.execute(request)
        guard [200, 201, 202].contains(response.status) else { throw await client.error(for: response, request: request) }
        let body = try await response.body.collect(upTo: 1 << 20)
        let json = try NuxeoJSON.parse(Data(body.readableBytesView))
        guard json["uploaded"]?.boolValue ?? true else {
            throw ProviderError(.server, "the batch did not take the upload", httpStatus: response.status, request: request.summary)
        }
        return (response.status, json)
    }
}

/// A chunked upload's session as ``UploadCheckpointer`` records it: the batch, what was sent
/// into it, and the chunks the server acknowledged.
struct NuxeoUploadSession: Codable, Sendable, Hashable {
    /// The record format's name.
    static let format = "nuxeo.batch.v1"

    var batch: String
    var fileName: String
    var length: Int64
    var chunkSize: Int
    var acknowledged: Set<Int> = []

    var chunkCount: Int { chunkSize > 0 ? Int((length + Int64(chunkSize) - 1) / Int64(chunkSize)) : 0 }
}

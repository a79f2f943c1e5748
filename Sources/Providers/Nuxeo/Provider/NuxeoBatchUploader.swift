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
    /// batch made here is deleted.
    func upload(
        _ source: any UploadSource, into given: String? = nil, fileName: String, mimeType: String, progress: ProgressHandler?
    ) async throws -> String {
        guard source.length != nil else {
            // Nuxeo needs the size up front (X-File-Size, chunk counts): spool to a temporary file first.
            let spooled = try await TemporarySpool.spool(source)
            defer { try? FileManager.default.removeItem(at: spooled) }
            return try await upload(try FileSource(url: spooled), into: given, fileName: fileName, mimeType: mimeType, progress: progress)
        }
        let batch: String
        if let given { batch = given } else { batch = try await client.createBatch() }
        do {
            guard let length = source.length else { throw ProviderError(.invalidArgument, "the source has no length") }
            progress?(TransferProgress(completed: 0, expected: length))
            if length <= Int64(chunkSize) {
                try await single(source, length: length, batch: batch, fileName: fileName, mimeType: mimeType, progress: progress)
            } else {
                try await chunked(
                    source, length: length, batch: batch, resuming: given != nil, fileName: fileName, mimeType: mimeType,
                    progress: progress)
            }
            progress?(TransferProgress(completed: length, expected: length))
            return batch
        } catch {
            if given == nil { try? await client.deleteBatch(batch) }
            throw ProviderError.wrap(error)
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
        progress: ProgressHandler?
    ) async throws {
        let count = Int((length + Int64(chunkSize) - 1) / Int64(chunkSize))
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
        var reader = try PartReader(source: source, length: length, partSize: chunkSize, only: wanted)
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

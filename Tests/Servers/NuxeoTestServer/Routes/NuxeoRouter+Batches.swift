import Foundation
import Hummingbird

extension NuxeoRouter {
    /// `/api/v1/upload/...` (spec §5); unknown batches answer 404 with an empty body.
    func upload(_ req: ServerRequest, segments raw: [String]) async throws -> Response {
        let segments = raw.map(FormDecoding.decodeSegment).filter { !$0.isEmpty }
        guard let batch = segments.first else {
            guard req.method == "POST" else { throw NuxeoError(status: 405, message: "Method Not Allowed") }
            let id = core.withState { $0.batches.create() }
            return Reply.json(.object([("batchId", .string(id))]), status: 201)
        }
        if batch == "handlers", segments.count == 1 {
            return Reply.json(.object([("handlers", .array([.object([("name", .string("default"))])]))]))
        }
        guard core.withState({ $0.batches.exists(batch) }) else { return Reply.empty(404) }
        if segments.count == 1 { return batchInfo(req, batch: batch) }
        if segments[1] == "info", segments.count == 2 {
            let files = core.withState { $0.batches.files(batch) } ?? []
            return Reply.json(.object([
                ("batchId", .string(batch)), ("provider", .string("default")),
                ("fileEntries", .array(files.map { Self.fileEntry($0.1) })),
            ]))
        }
        if segments[1] == "execute", segments.count == 3 {
            return try await executeOnBatch(req, batch: batch, index: 0, operation: segments[2])
        }
        guard let index = Int(segments[1]), index >= 0 else { return Reply.text(400, "Invalid file index: \(segments[1])") }
        if segments.count == 4, segments[2] == "execute" {
            return try await executeOnBatch(req, batch: batch, index: index, operation: segments[3])
        }
        guard segments.count == 2 else { throw NuxeoError.notFound(req.rawPath) }
        switch req.method {
        case "POST": return try await uploadFile(req, batch: batch, index: index)
        case "GET": return fileStatus(batch: batch, index: index)
        case "DELETE":
            let removed = core.withState { $0.batches.removeFile(batch, index) }
            return Reply.empty(removed ? 204 : 404)
        default: throw NuxeoError(status: 405, message: "Method Not Allowed")
        }
    }

    private func batchInfo(_ req: ServerRequest, batch: String) -> Response {
        switch req.method {
        case "DELETE":
            core.withState { _ = $0.batches.drop(batch) }
            return Reply.empty(204)
        case "GET":
            let files = core.withState { $0.batches.files(batch) } ?? []
            if files.isEmpty { return Reply.empty(204) }
            return Reply.json(.array(files.map { Self.fileEntry($0.1) }))
        default:
            return Reply.exception(405, "Method Not Allowed")
        }
    }

    static func fileEntry(_ file: UploadedFile) -> NXJSON {
        .object([("name", .string(file.name)), ("size", .int(Int64(file.size))), ("uploadType", .string(file.uploadType))])
    }

    /// Resume info: 202 while chunks are missing, 200 once complete.
    private func fileStatus(batch: String, index: Int) -> Response {
        guard let file = core.withState({ $0.batches.file(batch, index) }) else { return Reply.empty(404) }
        var members: [(String, NXJSON)] = [
            ("name", .string(file.name)), ("size", .int(Int64(file.size))), ("uploadType", .string(file.uploadType)),
        ]
        if file.chunked {
            members.append(("uploadedChunkIds", .array(file.uploadedChunkIDs.map { .int(Int64($0)) })))
            members.append(("chunkCount", .int(Int64(file.chunkCount))))
        }
        return Reply.json(.object(members), status: file.isComplete ? 200 : 202)
    }
}

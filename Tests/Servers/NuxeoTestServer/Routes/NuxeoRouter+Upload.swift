import Foundation
import Hummingbird

extension NuxeoRouter {
    /// `POST /upload/{batch}/{idx}`: one shot (201) or chunked (202 until complete, then 201).
    func uploadFile(_ req: ServerRequest, batch: String, index: Int) async throws -> Response {
        if req.header("Content-Type")?.lowercased().contains("multipart") == true {
            return Reply.text(400, "Multipart request not supported by this endpoint")
        }
        let name = req.header("X-File-Name").map(FormDecoding.decode) ?? "blob"
        let mime = req.header("X-File-Type").flatMap { $0.isEmpty ? nil : $0 }
        let sizeHeader = req.header("X-File-Size")
        let chunked = req.header("X-Upload-Type")?.lowercased() == "chunked"
        var chunkIndex = 0, chunkCount = 1
        if chunked {
            guard let ci = req.header("X-Upload-Chunk-Index").flatMap({ Int($0) }),
                  let cc = req.header("X-Upload-Chunk-Count").flatMap({ Int($0) }), cc > 0, ci >= 0, ci < cc,
                  let size = sizeHeader, Int(size) != nil
            else { return Reply.text(400, "Invalid chunked upload headers") }
            chunkIndex = ci
            chunkCount = cc
        }
        let data = try await req.collectBody()
        let uploadedSize = req.header("Content-Length") ?? "-1"
        let lost = chunked && core.faults.takeLostChunk(chunkIndex)
        let stored: UploadedFile? = core.withState { state in
            guard state.batches.exists(batch) else { return nil }
            var file = state.batches.file(batch, index).flatMap { $0.chunked == chunked && $0.chunkCount == chunkCount ? $0 : nil }
                ?? UploadedFile(name: name, mimeType: mime, declaredSize: sizeHeader.flatMap { Int($0) }, chunked: chunked, chunkCount: chunkCount)
            file.name = name
            file.mimeType = mime ?? file.mimeType
            if !lost { file.chunks[chunkIndex] = data }
            state.batches.store(file, batch: batch, index: index)
            return file
        }
        guard let file = stored else { return Reply.empty(404) }
        var members: [(String, NXJSON)] = [
            ("uploaded", .string("true")), ("batchId", .string(batch)), ("fileIdx", .string(String(index))),
            ("uploadType", .string(file.uploadType)), ("uploadedSize", .string(uploadedSize)),
        ]
        guard chunked else { return Reply.json(.object(members), status: 201) }
        let ids = Set(file.uploadedChunkIDs + (lost ? [chunkIndex] : [])).sorted()
        members.append(("uploadedChunkIds", .array(ids.map { .int(Int64($0)) })))
        members.append(("chunkCount", .int(Int64(chunkCount))))
        return Reply.json(.object(members), status: file.isComplete ? 201 : 202)
    }

    /// `POST /upload/{batch}/{idx}/execute/{op}`: `FileManager.Import`, `Blob.AttachOnDocument`.
    func executeOnBatch(_ req: ServerRequest, batch: String, index: Int, operation: String) async throws -> Response {
        let body = try await req.jsonBody()
        let params = body["params"] ?? .object([])
        let noDrop = req.header("X-Batch-No-Drop")?.lowercased() == "true"
        guard let blob = core.withState({ $0.batches.file(batch, index)?.blob }) else { return Reply.empty(404) }
        let void = req.header("X-NXVoidOperation")?.lowercased() == "true"
        switch operation {
        case "FileManager.Import":
            let parentRef = body["context"]?["currentDocument"]?.stringValue ?? params["currentDocument"]?.stringValue ?? ""
            let overwrite = params["overwite"]?.boolValue ?? params["overwrite"]?.boolValue ?? false
            let uid: String = try core.withState { state in
                guard let parent = state.repository.resolve(reference: parentRef) else { throw NuxeoError.notFound(parentRef) }
                guard parent.isFolderish else { throw NuxeoError.badRequest("Cannot import into a non-folderish document") }
                if !noDrop { state.batches.drop(batch) }
                if overwrite, let existing = state.repository.children(of: parent.uid)
                    .first(where: { $0.type.name == "File" && $0.displayTitle == blob.filename && !$0.isTrashed }) {
                    state.repository.mutate(existing.uid) { $0.blob = blob; $0.touch(by: req.user) }
                    state.repository.log(AuditEntry.Event.modified, existing.uid, user: req.user)
                    return existing.uid
                }
                let doc = state.repository.insert(parent: parent.uid, name: PathSegment.generate(blob.filename),
                                                  type: Repository.type("File"), title: blob.filename, user: req.user)
                state.repository.mutate(doc.uid) { $0.blob = blob }
                state.repository.log(AuditEntry.Event.created, doc.uid, user: req.user)
                return doc.uid
            }
            return void ? Reply.empty(204) : try documentReply(req, uid: uid)
        case "Blob.AttachOnDocument", "Blob.Attach":
            let ref = params["document"]?.stringValue ?? ""
            let xpath = params["xpath"]?.stringValue ?? "file:content"
            guard xpath == "file:content" else { throw NuxeoError.badRequest("Unsupported xpath: \(xpath)") }
            try core.withState { state in
                guard let doc = state.repository.resolve(reference: ref) else { throw NuxeoError.notFound(ref) }
                state.repository.mutate(doc.uid) { $0.blob = blob; $0.touch(by: req.user) }
                state.repository.log(AuditEntry.Event.modified, doc.uid, user: req.user)
                if !noDrop { state.batches.drop(batch) }
            }
            if void { return Reply.empty(204) }
            return Reply.bytes(blob.data, status: 200, contentType: blob.mimeType ?? "application/octet-stream",
                               headers: [("Content-Disposition", Self.contentDisposition(blob.filename, inline: false))])
        default:
            throw NuxeoError.notFound("No operation found with id \(operation)")
        }
    }
}

import Foundation
import Hummingbird

/// Chunking v2 at `/remote.php/dav/uploads/USER/<id>/…`.
///
/// No recorded exchange of this protocol exists (see `Tests/Fixtures/nextcloud/SOURCES.md`), so this
/// follows the documented protocol exactly (Nextcloud developer manual, `client_apis/WebDAV/chunking.rst`):
/// 1. `MKCOL …/uploads/USER/<id>`, optionally with `Destination` (the final file URL);
/// 2. `PUT …/<id>/<n>` for each chunk, with `Destination` and `OC-Total-Length` (a full quota is 507);
/// 3. `MOVE …/<id>/.file` with `Destination`, `OC-Total-Length` and optionally `X-OC-Mtime` and
///    `OC-Checksum`: the chunks, in name order (numeric when every name is a number), become the
///    file; the answer is 201 (created) or 204 (replaced) with `OC-ETag`, `ETag` and `OC-FileId`;
/// 4. `DELETE …/<id>` aborts the upload.
/// `PROPFIND` Depth 1 of `…/<id>` lists the chunks received with their sizes, so a client can resume.
///
/// Version 2 is the upload whose `MKCOL` carried `Destination`; as documented, every later request of
/// it must carry the same `Destination`, chunks are named by a number from 1 to 10000 and assembled in
/// that order, and chunks cannot be downloaded. (The 5 MB–5 GB chunk size the manual names is a limit
/// of object-storage targets, which this in-memory server is not, so it is not enforced.) An upload
/// started without `Destination` is the older version 1: any chunk names, assembled in name order.
struct UploadsEndpoint {
    let core: ServerCore
    let user: String
    let path: [String]

    var hrefBase: String { "/remote.php/dav/uploads/\(FormCodec.encodePath(user))" }

    func respond(_ req: ServerRequest) throws -> Response {
        guard let upload = path.first else {
            if req.method == "PROPFIND" { return try listUploads(req) }
            throw SabreError.methodNotAllowed("Method \(req.method) is not allowed on the uploads collection")
        }
        let chunk = path.count > 1 ? path[1] : nil
        if path.count > 2 { throw SabreError.notFound(path.joined(separator: "/")) }
        switch (req.method, chunk) {
        case ("MKCOL", nil): return try create(upload, req)
        case ("PUT", let name?) where name != ".file": return try store(upload, chunk: name, req)
        case ("MOVE", ".file"?): return try assemble(upload, req)
        case ("PROPFIND", _): return try list(upload, chunk: chunk, req)
        case ("DELETE", let name): return try remove(upload, chunk: name)
        default: throw SabreError.methodNotAllowed("Method \(req.method) is not allowed here")
        }
    }

    private func create(_ upload: String, _ req: ServerRequest) throws -> Response {
        try core.withState { state in
            if state.files.uploads[user]?[upload] != nil {
                throw SabreError.methodNotAllowed("The resource you tried to create already exists")
            }
            let now = ServerCore.now
            state.files.serial += 1
            state.files.uploads[user, default: [:]][upload] = UploadSession(
                destination: req.header("Destination"), mtime: now, etag: Identifiers.folderETag(serial: state.files.serial),
                id: state.files.takeID())
        }
        return Reply.empty(201)
    }

    /// For a version 2 upload (started with `Destination`): the request's `Destination` names the same file.
    private func checkDestination(_ session: UploadSession, _ req: ServerRequest) throws {
        guard let expected = session.destination else { return }
        guard let header = req.header("Destination") else {
            throw SabreError.badRequest("The Destination header is required for chunked upload v2")
        }
        if Destination.filesPath(header, user: user) != Destination.filesPath(expected, user: user) {
            throw SabreError.badRequest("The Destination header does not match the one the upload was started with")
        }
    }

    private func store(_ upload: String, chunk: String, _ req: ServerRequest) throws -> Response {
        try core.withState { state in
            guard let session = state.files.uploads[user]?[upload] else { throw SabreError.notFound(upload) }
            try checkDestination(session, req)
            if session.destination != nil, !(1...10000).contains(Int(chunk) ?? 0) {
                throw SabreError.badRequest("Chunk names of chunked upload v2 must be numbers between 1 and 10000")
            }
        }
        if core.faults.takeChunkDrop() { return Reply.dropped() }
        if let header = req.header("OC-Checksum"), let message = Checksums.verify(header, req.body) {
            throw SabreError.badRequest(message)
        }
        var data = req.body
        if core.faults.takeChunkCorruption(), !data.isEmpty { data[data.startIndex] ^= 0xFF }
        let created = try core.withState { state -> Bool in
            guard var session = state.files.uploads[user]?[upload] else { throw SabreError.notFound(upload) }
            if let total = req.header("OC-Total-Length").flatMap({ Int64($0) }), let quota = core.configuration.quotaBytes {
                let root = state.files.root(of: user, now: ServerCore.now)
                if state.files.size(of: root) + total > quota {
                    throw SabreError.insufficientStorage("Insufficient space in /\(user)/uploads, \(total) required")
                }
            }
            let created = session.chunks[chunk] == nil
            session.chunks[chunk] = data
            session.mtime = ServerCore.now
            state.files.uploads[user]?[upload] = session
            return created
        }
        return Reply.empty(created ? 201 : 204)
    }

    /// The chunk names in assembly order: numeric when every name is a number, else by name.
    static func order(_ names: [String]) -> [String] {
        if names.allSatisfy({ Int($0) != nil }) { return names.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) } }
        return names.sorted()
    }

    private func assemble(_ upload: String, _ req: ServerRequest) throws -> Response {
        guard let header = req.header("Destination"), let destination = Destination.filesPath(header, user: user),
            let name = destination.last
        else { throw SabreError.badRequest("The destination header was not supplied or is not in this user's files") }
        try FilesEndpoint.checkName(name)
        if core.faults.isLocked(user: user, path: destination.joined(separator: "/")) {
            throw SabreError.locked(destination.joined(separator: "/"))
        }
        let mtime = req.header("X-OC-Mtime").flatMap { FilesEndpoint.parseTime($0.trimmingCharacters(in: .whitespaces)) }
        let result = try core.withState { state -> (id: Int64, created: Bool, etag: String) in
            guard let session = state.files.uploads[user]?[upload] else { throw SabreError.notFound(upload) }
            try checkDestination(session, req)
            var data = Data()
            for chunk in Self.order(Array(session.chunks.keys)) { data.append(session.chunks[chunk] ?? Data()) }
            if let total = req.header("OC-Total-Length") {
                guard let expected = Int64(total.trimmingCharacters(in: .whitespaces)) else {
                    throw SabreError.badRequest("Invalid OC-Total-Length header")
                }
                if expected != Int64(data.count) {
                    throw SabreError.badRequest("Chunks on server do not sum up to \(expected) but to \(data.count) bytes")
                }
            }
            if let checksum = req.header("OC-Checksum"), let message = Checksums.verify(checksum, data) {
                throw SabreError.badRequest(message)
            }
            let root = state.files.root(of: user, now: ServerCore.now)
            guard let parent = state.files.resolve(root, Array(destination.dropLast())), state.files.nodes[parent]?.isFolder == true else {
                throw SabreError.conflict("The destination node is not found")
            }
            let existing = state.files.nodes[parent]?.children[name].flatMap { state.files.nodes[$0] }
            if existing?.isFolder == true { throw SabreError.conflict("\(destination.joined(separator: "/")) is a collection") }
            try FilesEndpoint.checkPreconditions(req, etag: existing?.etag)
            if let quota = core.configuration.quotaBytes,
                state.files.size(of: root) - Int64(existing?.data.count ?? 0) + Int64(data.count) > quota {
                throw SabreError.insufficientStorage("Insufficient space in /\(user)/files")
            }
            let now = ServerCore.now
            let checksum = core.isNextcloud ? req.header("OC-Checksum") : Checksums.ownCloudList(data)
            let written = state.files.writeFile(name: name, parent: parent, data: data, mtime: mtime ?? now, checksum: checksum, now: now)
            state.files.uploads[user]?[upload] = nil
            return (written.id, written.created, state.files.nodes[written.id]?.etag ?? "")
        }
        var headers = [
            ("OC-FileId", Identifiers.ocID(result.id, instance: core.instanceID)),
            ("OC-ETag", "\"\(result.etag)\""), ("ETag", "\"\(result.etag)\""),
        ]
        if mtime != nil { headers.append(("X-OC-MTime", "accepted")) }
        return Reply.empty(result.created ? 201 : 204, headers: headers)
    }

    private func remove(_ upload: String, chunk: String?) throws -> Response {
        try core.withState { state in
            guard state.files.uploads[user]?[upload] != nil else { throw SabreError.notFound(upload) }
            if let chunk {
                guard state.files.uploads[user]?[upload]?.chunks.removeValue(forKey: chunk) != nil else {
                    throw SabreError.notFound("\(upload)/\(chunk)")
                }
            } else {
                state.files.uploads[user]?[upload] = nil
            }
        }
        return Reply.empty(204)
    }

    /// PROPFIND of an upload folder (Depth 1 lists the chunks) or of one chunk.
    private func list(_ upload: String, chunk: String?, _ req: ServerRequest) throws -> Response {
        let request = try PropfindRequest.parse(req.body)
        let depth = FilesEndpoint.depth(req)
        let text = try core.withState { state -> String in
            guard let session = state.files.uploads[user]?[upload] else { throw SabreError.notFound(upload) }
            let folder = FileNode(
                id: session.id, name: upload, isFolder: true, parent: nil, mtime: session.mtime, etag: session.etag,
                creationTime: session.mtime, uploadTime: session.mtime, mimeType: "httpd/unix-directory")
            var entries: [(String, FileNode)] = []
            let encoded = FormCodec.encodePath(upload)
            if let chunk {
                guard let data = session.chunks[chunk] else { throw SabreError.notFound("\(upload)/\(chunk)") }
                entries.append(("\(hrefBase)/\(encoded)/\(FormCodec.encodePath(chunk))", chunkNode(chunk, data, session)))
            } else {
                entries.append(("\(hrefBase)/\(encoded)/", folder))
                if depth > 0 {
                    for name in Self.order(Array(session.chunks.keys)) {
                        entries.append(("\(hrefBase)/\(encoded)/\(FormCodec.encodePath(name))", chunkNode(name, session.chunks[name] ?? Data(), session)))
                    }
                }
            }
            let context = PropertyContext(
                flavor: core.flavor, instanceID: core.instanceID, owner: user, ownerDisplayName: core.configuration.displayName(user),
                store: FileStore(), rootID: -1, quota: core.configuration.quotaBytes, shareTypes: [:], baseURL: core.rootURL)
            var writer = MultistatusWriter(flavor: core.flavor)
            for (href, node) in entries {
                let split = request.split(node, context: context, isRoot: false)
                writer.response(href: href, found: split.found, groups: [("404 Not Found", split.missing)])
            }
            return writer.finish()
        }
        return Reply.xml(text)
    }

    private func chunkNode(_ name: String, _ data: Data, _ session: UploadSession) -> FileNode {
        FileNode(
            id: session.id, name: name, isFolder: false, parent: session.id, data: data, mtime: session.mtime,
            etag: Identifiers.fileETag(), creationTime: session.mtime, uploadTime: session.mtime, mimeType: "application/octet-stream")
    }

    private func listUploads(_ req: ServerRequest) throws -> Response {
        let text = core.withState { state -> String in
            var writer = MultistatusWriter(flavor: core.flavor)
            writer.response(href: hrefBase + "/", found: [(.d("resourcetype"), .xml(MultistatusWriter.collection))])
            for name in (state.files.uploads[user] ?? [:]).keys.sorted() {
                writer.response(href: "\(hrefBase)/\(FormCodec.encodePath(name))/", found: [(.d("resourcetype"), .xml(MultistatusWriter.collection))])
            }
            return writer.finish()
        }
        return Reply.xml(text)
    }
}

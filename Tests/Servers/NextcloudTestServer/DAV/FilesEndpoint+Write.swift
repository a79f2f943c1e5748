import Foundation
import Hummingbird

extension FilesEndpoint {
    /// PUT: `OC-Checksum` verified (a mismatch is 400 and nothing is stored), `X-OC-Mtime` sets the
    /// modification time (`X-OC-MTime: accepted`), answers 201 or 204 with `OC-FileId`, `OC-ETag`, `ETag`.
    func put(_ req: ServerRequest) throws -> Response {
        guard let name = path.last else { throw SabreError.methodNotAllowed("The root cannot be replaced") }
        if req.header("OC-Chunked") != nil { return try putLegacyChunk(req, name: name) }
        try Self.checkName(name)
        if let header = req.header("OC-Checksum"), let message = Checksums.verify(header, req.body) {
            throw SabreError.badRequest(message)
        }
        try checkLock(path)
        let mtime = req.header("X-OC-Mtime").flatMap { Self.parseTime($0.trimmingCharacters(in: .whitespaces)) }
        let result = try core.withState { state -> (id: Int64, created: Bool, etag: String) in
            let root = rootID(&state)
            guard let located = locate(&state, Array(path.dropLast())), state.files.nodes[located.id]?.isFolder == true else {
                throw SabreError.conflict("Files cannot be created in non-existent collections")
            }
            let parent = located.id
            let existing = state.files.nodes[parent]?.children[name].flatMap { state.files.nodes[$0] }
            if existing?.isFolder == true { throw SabreError.conflict("\(relative) is a collection") }
            if path.count == 1, existing == nil, state.mounts(for: user, groups: core.configuration.groups).contains(where: { $0.name == name }) {
                guard let mount = locate(&state, path), let node = state.files.nodes[mount.id], !node.isFolder else {
                    throw SabreError.conflict("\(relative) is a collection")
                }
                try Self.require(2, of: mount, "changes")
                try Self.checkPreconditions(req, etag: node.etag)
                let now = ServerCore.now
                let checksum = core.isNextcloud ? req.header("OC-Checksum") : Checksums.ownCloudList(req.body)
                guard let mountParent = node.parent else { throw SabreError.notFound(relative) }
                let written = state.files.writeFile(name: node.name, parent: mountParent, data: req.body, mtime: mtime ?? now, checksum: checksum, now: now)
                return (written.id, false, state.files.nodes[written.id]?.etag ?? "")
            }
            try Self.require(existing == nil ? 4 : 2, of: located, existing == nil ? "creating files" : "changes")
            try Self.checkPreconditions(req, etag: existing?.etag)
            if located.share == nil {
                try checkQuota(state, adding: Int64(req.body.count) - Int64(existing?.data.count ?? 0), root: root)
            }
            let now = ServerCore.now
            let checksum = core.isNextcloud ? req.header("OC-Checksum") : Checksums.ownCloudList(req.body)
            let written = state.files.writeFile(
                name: name, parent: parent, data: req.body, mtime: mtime ?? now, checksum: checksum, now: now)
            return (written.id, written.created, state.files.nodes[written.id]?.etag ?? "")
        }
        var headers = [
            ("OC-FileId", Identifiers.ocID(result.id, instance: core.instanceID)),
            ("OC-ETag", "\"\(result.etag)\""), ("ETag", "\"\(result.etag)\""),
        ]
        if mtime != nil { headers.append(("X-OC-MTime", "accepted")) }
        return Reply.empty(result.created ? 201 : 204, headers: headers)
    }

    /// 507 when `adding` bytes would exceed the quota.
    func checkQuota(_ state: ServerState, adding: Int64, root: Int64) throws {
        guard let quota = core.configuration.quotaBytes, adding > 0 else { return }
        let used = state.files.size(of: root)
        if used + adding > quota {
            throw SabreError.insufficientStorage("Insufficient space in /\(user)/files, \(adding) required, \(max(0, quota - used)) available")
        }
    }

    /// MKCOL: 405 when something exists there, 409 when the parent is missing.
    func mkcol(_ req: ServerRequest) throws -> Response {
        guard let name = path.last else {
            throw SabreError.methodNotAllowed("The resource you tried to create already exists")
        }
        try Self.checkName(name)
        if !req.body.isEmpty {
            throw SabreError(415, "Sabre\\DAV\\Exception\\UnsupportedMediaType", "The request body for the MKCOL request must have an xml Content-Type")
        }
        let id = try core.withState { state -> Int64 in
            guard let located = locate(&state, Array(path.dropLast())), state.files.nodes[located.id]?.isFolder == true else {
                throw SabreError.conflict("Parent node does not exist")
            }
            let parent = located.id
            if state.files.nodes[parent]?.children[name] != nil || locate(&state, path) != nil {
                throw SabreError.methodNotAllowed("The resource you tried to create already exists")
            }
            try Self.require(4, of: located, "creating folders")
            return state.files.newFolder(name: name, parent: parent, now: ServerCore.now)
        }
        return Reply.empty(201, headers: [("OC-FileId", Identifiers.ocID(id, instance: core.instanceID))])
    }

    /// DELETE: into the trash bin.
    func delete(_ req: ServerRequest) throws -> Response {
        guard !path.isEmpty else { throw SabreError.forbidden() }
        try checkLock(path)
        try core.withState { state in
            guard let located = locate(&state, path) else { throw SabreError.notFound(relative) }
            let id = located.id
            try Self.checkPreconditions(req, etag: state.files.nodes[id]?.etag)
            if located.isMountRoot, let share = located.share {
                // Deleting a received share's mount point unshares it for this user.
                guard share.type == 0 else { throw SabreError.forbidden("A group share cannot be left this way") }
                state.shares.shares[share.id] = nil
                return
            }
            try Self.require(8, of: located, "deleting")
            state.files.moveToTrash(user: state.fileOwner(id) ?? user, id, now: ServerCore.now)
        }
        return Reply.empty(204)
    }
}

extension FileStore {
    /// Detaches `id` and records it in `user`'s trash.
    mutating func moveToTrash(user: String, _ id: Int64, now: Int64) {
        guard let node = nodes[id] else { return }
        let location = path(of: id).joined(separator: "/")
        detach(id, now: now)
        var time = now
        while (trash[user] ?? []).contains(where: { $0.name == node.name && $0.deletionTime == time }) { time += 1 }
        trash[user, default: []].append(TrashEntry(nodeID: id, name: node.name, originalLocation: location, deletionTime: time))
    }
}

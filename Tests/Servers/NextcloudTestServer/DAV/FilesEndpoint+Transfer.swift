import Foundation
import Hummingbird

extension FilesEndpoint {
    /// MOVE and COPY with `Destination` and `Overwrite` (default `T`); 201 when the destination was
    /// new, 204 when it replaced something (which goes to the trash).
    func transfer(_ req: ServerRequest, move: Bool) throws -> Response {
        guard let destinationHeader = req.header("Destination") else {
            throw SabreError.badRequest("The destination header was not supplied")
        }
        guard let destination = Destination.filesPath(destinationHeader, user: user) else {
            throw SabreError.badRequest("The destination is not in this user's files")
        }
        guard !path.isEmpty, let newName = destination.last else { throw SabreError.forbidden("The root cannot be moved") }
        try Self.checkName(newName)
        let overwrite = req.header("Overwrite")?.uppercased() != "F"
        if move { try checkLock(path) }
        try checkLock(destination)
        let result = try core.withState { state -> (created: Bool, id: Int64) in
            let root = rootID(&state)
            guard let sourceLocated = locate(&state, path) else { throw SabreError.notFound(relative) }
            let source = sourceLocated.id
            try Self.checkPreconditions(req, etag: state.files.nodes[source]?.etag)
            guard let parentLocated = locate(&state, Array(destination.dropLast())), state.files.nodes[parentLocated.id]?.isFolder == true else {
                throw SabreError.conflict("The destination node is not found")
            }
            let parent = parentLocated.id
            if move {
                if sourceLocated.isMountRoot { throw SabreError.forbidden("A received share cannot be moved") }
                try Self.require(8, of: sourceLocated, "moving out")
            }
            try Self.require(4, of: parentLocated, "creating")
            if destination == path { throw SabreError.forbidden("Source and destination uri are identical.") }
            if state.files.isInside(parent, source) {
                throw SabreError.conflict("A node cannot be moved or copied into one of its own children")
            }
            let now = ServerCore.now
            let existing = state.files.nodes[parent]?.children[newName]
            if let existing {
                guard overwrite else {
                    throw SabreError.preconditionFailed(
                        "The destination node already exists, and the overwrite header is set to false", header: "Overwrite")
                }
                state.files.moveToTrash(user: state.fileOwner(existing) ?? user, existing, now: now)
            }
            if !move, parentLocated.share == nil {
                try checkQuota(state, adding: state.files.size(of: source), root: root)
            }
            let id: Int64
            if move {
                state.files.detach(source, now: now)
                id = source
            } else {
                guard let copy = state.files.duplicate(source, now: now) else { throw SabreError.notFound(relative) }
                id = copy
            }
            state.files.attach(id, to: parent, name: newName, now: now)
            return (existing == nil, id)
        }
        let etag = core.withState { $0.files.nodes[result.id]?.etag ?? "" }
        return Reply.empty(result.created ? 201 : 204, headers: [
            ("OC-FileId", Identifiers.ocID(result.id, instance: core.instanceID)), ("OC-ETag", "\"\(etag)\""), ("ETag", "\"\(etag)\""),
        ])
    }
}

/// Reads `Destination` headers.
enum Destination {
    /// The components below the user's root of a destination in `/remote.php/dav/files/USER/…`
    /// or `/remote.php/webdav/…` (an absolute URL or an absolute path); `nil` for anything else.
    static func filesPath(_ header: String, user: String) -> [String]? {
        var text = header.trimmingCharacters(in: .whitespaces)
        if let scheme = text.range(of: "://") {
            let afterScheme = text[scheme.upperBound...]
            guard let slash = afterScheme.firstIndex(of: "/") else { return nil }
            text = String(afterScheme[slash...])
        }
        if let query = text.firstIndex(of: "?") { text = String(text[..<query]) }
        let segments = ServerRequest.segments(FormCodec.percentDecode(text))
        guard segments.first == "remote.php" else { return nil }
        if segments.count >= 2, segments[1] == "webdav" { return Array(segments.dropFirst(2)) }
        if segments.count >= 4, segments[1] == "dav", segments[2] == "files", segments[3] == user {
            return Array(segments.dropFirst(4))
        }
        return nil
    }

    /// The raw segments after `/remote.php/dav/` of a destination, for trash restores.
    static func davSegments(_ header: String) -> [String] {
        var text = header.trimmingCharacters(in: .whitespaces)
        if let scheme = text.range(of: "://") {
            let afterScheme = text[scheme.upperBound...]
            text = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? ""
        }
        let segments = ServerRequest.segments(FormCodec.percentDecode(text))
        guard segments.count >= 2, segments[0] == "remote.php", segments[1] == "dav" else { return [] }
        return Array(segments.dropFirst(2))
    }
}

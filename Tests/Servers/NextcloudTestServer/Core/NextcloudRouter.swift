import Foundation
import Hummingbird
import NIOCore

/// Dispatches every request: records it, applies faults, then routes by path.
struct NextcloudRouter: Sendable {
    let core: ServerCore

    func respond(to request: Request) async -> Response {
        var body = Data()
        do {
            for try await buffer in request.body { body.append(contentsOf: buffer.readableBytesView) }
        } catch {
            return SabreError.badRequest("The request body could not be read").response
        }
        let req = ServerRequest(request, body: body)
        core.withState { $0.requests.append(req.record) }
        if let status = core.faults.takeFailure(method: req.method, path: req.rawPath) {
            return SabreError.injected(status).response
        }
        let segments = req.segments
        switch segments.first {
        case "status.php": return StatusEndpoint(core: core).respond(req)
        case "index.php": return LoginFlowEndpoint(core: core).respond(req, segments: Array(segments.dropFirst()))
        case "login": return LoginFlowEndpoint(core: core).respond(req, segments: segments)
        case "ocs":
            return OCSRouter(core: core).respond(req, segments: Array(segments.dropFirst()))
        case "remote.php":
            return dav(req, segments: Array(segments.dropFirst()))
        case "s":
            return PublicEndpoint(core: core).link(req, segments: Array(segments.dropFirst()))
        case "public.php" where segments.count >= 2 && segments[1] == "webdav":
            return PublicEndpoint(core: core).webdav(req, path: Array(segments.dropFirst(2)))
        default:
            let html = "<!DOCTYPE html><html><head><title>Not Found</title></head><body>Page not found</body></html>"
            return Reply.bytes(Data(html.utf8), status: 404, headers: [("Content-Type", "text/html; charset=UTF-8")])
        }
    }

    /// `remote.php/webdav/…` and `remote.php/dav/…`.
    private func dav(_ req: ServerRequest, segments: [String]) -> Response {
        if core.faults.maintenance { return SabreError.maintenance.response }
        let user = core.authenticatedUser(req)
        // OPTIONS answers without credentials (anonymous OPTIONS), but wrong ones are refused like
        // on every other method.
        if req.method == "OPTIONS", user != nil || req.header("Authorization") == nil { return options() }
        guard let user else {
            return Authentication.challenge(core.flavor, sentCredentials: req.header("Authorization") != nil).response
        }
        do {
            switch segments.first {
            case "webdav":
                let files = FilesEndpoint(core: core, user: user, hrefBase: "/remote.php/webdav", path: Array(segments.dropFirst()))
                return try files.respond(req)
            case "dav":
                return try davTree(req, user: user, segments: Array(segments.dropFirst()))
            default:
                throw SabreError.notFound(segments.joined(separator: "/"))
            }
        } catch let error as SabreError {
            return error.response
        } catch {
            return SabreError(500, "Sabre\\DAV\\Exception", "Internal error").response
        }
    }

    /// The `remote.php/dav` tree: `files/USER`, `uploads/USER`, `trashbin/USER`, `SEARCH` on the root.
    private func davTree(_ req: ServerRequest, user: String, segments: [String]) throws -> Response {
        guard let collection = segments.first else {
            if req.method == "SEARCH" { return try SearchEndpoint(core: core, user: user).respond(req) }
            throw SabreError.methodNotAllowed("Method \(req.method) is not allowed on the root of the DAV tree")
        }
        let rest = Array(segments.dropFirst())
        if let owner = rest.first, owner != user, ["files", "uploads", "trashbin", "trash-bin", "versions"].contains(collection) {
            throw SabreError.notFound(owner)
        }
        switch collection {
        case "files":
            guard !rest.isEmpty else { throw SabreError.forbidden("Listing the files collection is not allowed") }
            let files = FilesEndpoint(
                core: core, user: user, hrefBase: "/remote.php/dav/files/\(FormCodec.encodePath(user))",
                path: Array(rest.dropFirst()))
            return try files.respond(req)
        case "uploads":
            guard core.configuration.chunking else { throw SabreError.notFound("uploads") }
            return try UploadsEndpoint(core: core, user: user, path: Array(rest.dropFirst())).respond(req)
        case "versions":
            guard !rest.isEmpty else { throw SabreError.notFound(collection) }
            return try VersionsEndpoint(core: core, user: user, path: Array(rest.dropFirst())).respond(req)
        case "trashbin":
            return try TrashEndpoint(core: core, user: user, path: Array(rest.dropFirst())).respond(req)
        case "systemtags", "systemtags-relations":
            return try SystemTagsEndpoint(core: core, user: user, collection: collection, path: rest).respond(req)
        case "trash-bin":
            guard rest.count >= 1 else { throw SabreError.notFound(collection) }
            return try OwnCloudTrashEndpoint(core: core, user: user, path: Array(rest.dropFirst())).respond(req)
        default:
            throw SabreError.notFound(collection)
        }
    }

    private func options() -> Response {
        let dav = core.isNextcloud
            ? "1, 3, extended-mkcol, access-control, calendarserver-principal-property-search, nextcloud-checksum-update, nc-calendar-search, nc-enable-birthday-calendar"
            : "1, 3, extended-mkcol, access-control, calendarserver-principal-property-search"
        return Reply.empty(200, headers: [
            ("Allow", "OPTIONS, GET, HEAD, DELETE, PROPFIND, PUT, PROPPATCH, COPY, MOVE, REPORT, SEARCH, MKCOL"),
            ("DAV", dav), ("MS-Author-Via", "DAV"), ("Accept-Ranges", "bytes"),
        ])
    }
}

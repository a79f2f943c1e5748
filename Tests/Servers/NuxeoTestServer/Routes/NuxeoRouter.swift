import Foundation
import Hummingbird
import NIOCore

/// Dispatches every request: records it, applies faults, authenticates, then
/// hands it to the area handlers (auth, documents, blobs, batches, automation, search).
struct NuxeoRouter: Sendable {
    let core: ServerCore

    func respond(to request: Request, context: BasicRequestContext) async -> Response {
        var req = ServerRequest(request)
        core.withState {
            $0.requests.append(RecordedRequest(method: req.method, path: req.rawPath, query: req.rawQuery, headers: req.headers))
        }
        if let failure = core.faults.takeFailure(method: req.method, path: req.rawPath) {
            if failure.status == 401 { return Reply.unauthorized(req) }
            let headers = failure.retryAfter.map { [("Retry-After", String($0))] } ?? []
            return Reply.exception(failure.status, "Injected failure \(failure.status)", headers: headers)
        }
        do {
            guard let rest = stripContext(req.rawPath) else { throw NuxeoError.notFound(req.rawPath) }
            if rest == "/runningstatus" { return Reply.text(200, "Ok") }
            if rest.hasPrefix("/s3/") { return try blobFromS3(req, rest: rest) }
            guard let user = authenticate(req) else { return Reply.unauthorized(req) }
            req.user = user
            return try await dispatch(req, rest: rest)
        } catch let error as NuxeoError {
            return Reply.error(error)
        } catch {
            return Reply.exception(500, "\(error)")
        }
    }

    /// The path below the context path, `nil` when outside it.
    private func stripContext(_ path: String) -> String? {
        let prefix = core.contextPrefix
        if prefix.isEmpty { return path }
        if path == prefix { return "/" }
        guard path.hasPrefix(prefix + "/") else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    private func dispatch(_ req: ServerRequest, rest: String) async throws -> Response {
        if rest == "/authentication/token" { return try tokenServlet(req) }
        if rest == "/json/cmis" || rest == "/json/cmis/" { return cmis(req) }
        if rest.hasPrefix("/nxfile/") { return try nxfile(req, rest: rest) }
        for prefix in ["/api/v1", "/site/api/v1"] where rest == prefix || rest.hasPrefix(prefix + "/") {
            let segments = rest.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            return try await api(req, segments: Array(segments.map(String.init)))
        }
        if rest.hasPrefix("/site/automation/") {
            let op = FormDecoding.decodeSegment(String(rest.dropFirst("/site/automation/".count)))
            return try await automation(req, operation: op, inputOverride: nil)
        }
        throw NuxeoError.notFound(req.rawPath)
    }

    /// `/api/v1/...` below the version, as raw segments.
    private func api(_ req: ServerRequest, segments raw: [String]) async throws -> Response {
        var segments = raw
        if segments.first == "repo" {
            guard segments.count >= 2 else { throw NuxeoError.notFound(req.rawPath) }
            let name = FormDecoding.decodeSegment(segments[1])
            guard name == "default" else { throw NuxeoError.notFound("Repository \(name) not found") }
            segments.removeFirst(2)
        }
        if let repo = req.header("X-NXRepository") ?? req.queryValue("nxrepository"), !repo.isEmpty, repo != "default" {
            throw NuxeoError.notFound("Repository \(repo) not found")
        }
        switch segments.first ?? "" {
        case "me": return try me(req)
        case "automation":
            let op = segments.dropFirst().map(FormDecoding.decodeSegment).joined(separator: "/")
            if op == "login" { return login(req) }
            return try await automation(req, operation: op, inputOverride: nil)
        case "path", "id": return try await documents(req, segments: segments)
        case "upload": return try await upload(req, segments: Array(segments.dropFirst()))
        case "search", "query": return try search(req, segments: segments)
        default: throw NuxeoError.notFound(req.rawPath)
        }
    }
}

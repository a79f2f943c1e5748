import Foundation
import Hummingbird
import NIOCore

/// Dispatches every request: records it, applies faults, resolves the
/// session, checks the secure token, then hands the action to its handler.
struct PydioRouter: Sendable {
    let core: ServerCore

    /// Actions callable without a secure token (`skipSecureToken` in the manifests).
    static let tokenExempt: Set<String> = ["get_secure_token", "get_boot_conf", "get_boot_gui", "get_captcha"]
    /// Actions that work without a logged-in user.
    static let anonymous: Set<String> = ["get_seed", "login", "logout", "get_captcha", "get_secure_token", "get_xml_registry"]

    func respond(to request: Request, context: PydioRequestContext) async -> Response {
        var body = Data()
        do {
            for try await buffer in request.body { body.append(contentsOf: buffer.readableBytesView) }
        } catch {
            return Reply.bytes(Data(), status: 400, headers: [])
        }
        let req = ActionRequest(request, body: body, address: context.address)
        core.withState { $0.requests.append(req.record) }
        let route = Route(path: req.rawPath, basePrefix: core.basePrefix)
        let faultAction: String
        switch route {
        case .publicLink: faultAction = "public"
        default: faultAction = req.action ?? "ping"
        }
        if let failure = core.faults.takeFailure(action: faultAction) {
            let headers = failure.retryAfter.map { [("Retry-After", String($0))] } ?? []
            return Reply.bytes(Data(), status: failure.status, headers: headers)
        }
        switch route {
        case .index: return await index(req)
        case .publicLink(let hash, let name): return publicDownload(req, hash: hash, name: name)
        case .notFound:
            let html = "<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>"
            return Reply.bytes(Data(html.utf8), status: 404, headers: [("Content-Type", "text/html; charset=UTF-8")])
        }
    }

    /// `index.php`: session, token, authentication, then the action.
    private func index(_ req: ActionRequest) async -> Response {
        var exchange = Exchange(request: req, core: core)
        let action = req.action ?? "ping"
        let session = exchange.session
        if !session.tokens.isEmpty, !Self.tokenExempt.contains(action) {
            guard let token = req.param("secure_token"), session.tokens.contains(token) else {
                return exchange.finish(.body(Reply.notAllowed))
            }
        }
        if session.user == nil, !Self.anonymous.contains(action) {
            return exchange.finish(.body(Reply.requireAuth))
        }
        let outcome = await perform(action, &exchange)
        return exchange.finish(outcome)
    }

    private func perform(_ action: String, _ exchange: inout Exchange) async -> Outcome {
        switch action {
        case "ping": return .body(Reply.requireAuth)
        case "get_seed": return getSeed(&exchange)
        case "login": return login(&exchange)
        case "logout": return logout(&exchange)
        case "get_captcha": return captcha(&exchange)
        case "get_secure_token": return secureToken(&exchange)
        case "get_xml_registry", "state": return registry(&exchange)
        case "switch_repository": return switchRepository(&exchange)
        default: return await fileAction(action, &exchange)
        }
    }

    /// The file actions, after resolving the workspace.
    private func fileAction(_ action: String, _ exchange: inout Exchange) async -> Outcome {
        let requested = exchange.request.param("tmp_repository_id") ?? exchange.session.repository
        guard let entry = WorkspaceCatalog.resolve(requested) else {
            return .body(Reply.error("Could not find workspace with id/alias \(requested)"))
        }
        guard entry.holdsFiles else { return .body(Reply.emptyHTML) }
        let ctx = ActionContext(request: exchange.request, workspace: entry.id, user: exchange.session.user ?? "", core: core)
        switch action {
        case "ls":
            var listing = ctx.list()
            listing.withoutLength = true
            return .body(listing)
        case "stat": return .body(ctx.stat())
        case "mkdir": return .body(ctx.mkdir())
        case "mkfile": return .body(ctx.mkfile())
        case "rename": return .body(ctx.rename())
        case "copy", "move", "delete": return .body(ctx.transfer(action))
        case "restore": return .body(ctx.restore())
        case "put_content": return .body(ctx.putContent())
        case "download": return ctx.download()
        case "upload": return .body(ctx.upload())
        case "search": return .body(ctx.search())
        case "share": return .body(ctx.share())
        case "load_shared_element_data": return .body(ctx.shareData())
        case "unshare": return .body(ctx.unshare())
        default: return .body(Reply.emptyHTML)
        }
    }
}

import Foundation
import Hummingbird

/// Login Flow v2 as Nextcloud's `ClientFlowLoginV2Controller` serves it, under `index.php/login/v2`
/// (and `login/v2`, as with pretty URLs):
///
/// - `POST login/v2`: a new flow, named after the client's `User-Agent`:
///   `{"poll":{"token":…,"endpoint":"<root>/index.php/login/v2/poll"},"login":"<root>/index.php/login/v2/flow/<loginToken>"}`;
/// - `POST login/v2/poll` with `token`: 404 `[]` until the user granted access, then 200
///   `{"server":…,"loginName":…,"appPassword":…}` once (the flow is deleted), 404 again after;
///   a flow expires after 20 minutes (``LoginFlowStore/lifetime``);
/// - the browser's side, in one small page where the real server has several (landing, auth
///   picker, login, grant): `GET login/v2/flow/<loginToken>` shows a form, and posting it back
///   with `user`, `password` and its hidden `stateToken` grants access: the server creates an app
///   password named after the client and answers "Account connected". An unknown or expired
///   flow answers 403 "Your login token is invalid or has expired".
struct LoginFlowEndpoint {
    let core: ServerCore

    /// `segments` after `index.php` (or the whole path, for `login/…`).
    func respond(_ req: ServerRequest, segments: [String]) -> Response {
        guard segments.count >= 2, segments[0] == "login", segments[1] == "v2" else { return Self.notFound() }
        let rest = Array(segments.dropFirst(2))
        switch (req.method, rest.count) {
        case ("POST", 0): return start(req)
        case ("POST", 1) where rest[0] == "poll": return poll(req)
        case ("GET", 2) where rest[0] == "flow": return page(loginToken: rest[1])
        case ("POST", 2) where rest[0] == "flow": return grant(req, loginToken: rest[1])
        default: return Self.notFound()
        }
    }

    private var root: String { core.rootURL }

    private func start(_ req: ServerRequest) -> Response {
        let flow = LoginFlowStore.Flow(
            pollToken: LoginFlowStore.randomToken(128), loginToken: LoginFlowStore.randomToken(128),
            stateToken: LoginFlowStore.randomToken(64), clientName: req.header("User-Agent") ?? "unknown", created: Date())
        core.withState { state in
            state.loginFlows.dropExpired(at: Date())
            state.loginFlows.flows[flow.pollToken] = flow
            state.loginFlows.issued.append(flow.pollToken)
        }
        let body = OCSValue.object([
            ("poll", .object([("token", .string(flow.pollToken)), ("endpoint", .string(root + "/index.php/login/v2/poll"))])),
            ("login", .string(root + "/index.php/login/v2/flow/" + flow.loginToken)),
        ])
        return Reply.json(body.json())
    }

    private func poll(_ req: ServerRequest) -> Response {
        let token = OCSRouter.parameters(req)["token"] ?? ""
        let grant: LoginFlowStore.Grant? = core.withState { state in
            let now = Date()
            guard let flow = state.loginFlows.flows[token] else { return nil }
            if flow.isExpired(at: now) {
                state.loginFlows.flows[token] = nil
                return nil
            }
            guard let grant = flow.grant else { return nil }
            state.loginFlows.flows[token] = nil
            return grant
        }
        guard let grant else { return Reply.json("[]", status: 404) }
        let body = OCSValue.object([
            ("server", .string(grant.server)), ("loginName", .string(grant.loginName)), ("appPassword", .string(grant.appPassword)),
        ])
        return Reply.json(body.json())
    }

    private func page(loginToken: String) -> Response {
        guard let flow = core.withState({ $0.loginFlows.flow(loginToken: loginToken, at: Date()) }), flow.grant == nil else {
            return Self.forbidden("Your login token is invalid or has expired")
        }
        let product = core.isNextcloud ? "Nextcloud" : "ownCloud"
        let client = Self.html(flow.clientName)
        let html = """
            <!DOCTYPE html>
            <html><head><title>\(product)</title></head><body>
            <h2>Connect to your account</h2>
            <p>Please log in before granting <strong>\(client)</strong> access to your \(product) account.</p>
            <form method="POST" action="/index.php/login/v2/flow/\(loginToken)">
            <input type="hidden" name="stateToken" value="\(flow.stateToken)">
            <label>Login <input type="text" name="user" autocomplete="username"></label>
            <label>Password <input type="password" name="password" autocomplete="current-password"></label>
            <input type="submit" value="Grant access">
            </form>
            </body></html>
            """
        return Self.page(html, status: 200)
    }

    private func grant(_ req: ServerRequest, loginToken: String) -> Response {
        let form = OCSRouter.parameters(req)
        let user = form["user"] ?? ""
        let password = form["password"] ?? ""
        enum Outcome { case expired, badState, badLogin, granted }
        let outcome: Outcome = core.withState { state in
            guard let flow = state.loginFlows.flow(loginToken: loginToken, at: Date()), flow.grant == nil else { return .expired }
            guard form["stateToken"] == flow.stateToken else { return .badState }
            guard let expected = core.configuration.users[user], expected == password else { return .badLogin }
            let secret = LoginFlowStore.randomToken(72)
            state.loginFlows.issued.append(secret)
            state.loginFlows.granted[secret] = LoginFlowStore.AppPassword(user: user, name: flow.clientName)
            state.loginFlows.flows[flow.pollToken]?.grant = LoginFlowStore.Grant(server: root, loginName: user, appPassword: secret)
            return .granted
        }
        switch outcome {
        case .expired: return Self.forbidden("Your login token is invalid or has expired")
        case .badState: return Self.forbidden("State token does not match")
        case .badLogin: return Self.forbidden("Wrong login or password.")
        case .granted:
            let html = """
                <!DOCTYPE html>
                <html><head><title>Account connected</title></head><body>
                <h2>Account connected</h2>
                <p>Your client should now be connected!<br>You can close this window.</p>
                </body></html>
                """
            return Self.page(html, status: 200)
        }
    }

    /// `DELETE ocs/v2.php/core/apppassword` (`AppPasswordController::deleteAppPassword`): revokes the
    /// app password the request signs in with; 403 "no app password in use" when it signs in with
    /// the user's password.
    static func revoke(_ core: ServerCore, _ req: ServerRequest) -> OCSAnswer {
        guard let secret = core.appPassword(req) else { return .failure(403, "no app password in use") }
        core.withState { state in
            state.loginFlows.granted[secret] = nil
            state.loginFlows.revoked.insert(secret)
        }
        return .ok(.array([]))
    }

    private static func forbidden(_ message: String) -> Response {
        page("<!DOCTYPE html><html><head><title>Error</title></head><body><p>\(html(message))</p></body></html>", status: 403)
    }

    private static func page(_ html: String, status: Int) -> Response {
        Reply.bytes(Data(html.utf8), status: status, headers: [("Content-Type", "text/html; charset=UTF-8")])
    }

    private static func notFound() -> Response {
        page("<!DOCTYPE html><html><head><title>Not Found</title></head><body>Page not found</body></html>", status: 404)
    }

    /// `text` escaped for HTML.
    private static func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

import Foundation
import Hummingbird

/// One `index.php` call's session handling: finds or creates the session
/// (cookie `AjaXplorer` or `ajxp_sessid`), replays a remember-me cookie,
/// and collects the `Set-Cookie` headers of the answer.
struct Exchange {
    let request: ActionRequest
    let core: ServerCore
    private(set) var sessionID: String
    private(set) var cookies: [String] = []

    init(request: ActionRequest, core: ServerCore) {
        self.request = request
        self.core = core
        let sent = request.cookie("AjaXplorer") ?? request.param("ajxp_sessid")
        var newCookies: [String] = []
        let remember = request.cookie("AjaXplorer-remember")
        sessionID = core.withState { state in
            var id: String
            if let sent, state.sessions[sent] != nil {
                id = sent
            } else {
                id = state.sessions.create()
                newCookies.append("AjaXplorer=\(id); path=/; HttpOnly")
            }
            if state.sessions[id]?.user == nil, let remember, let user = state.sessions.takeRemembered(remember),
               core.configuration.users[user] != nil {
                state.sessions[id]?.user = user
                _ = state.sessions.issueToken(id)
                let rotated = state.sessions.remember(user)
                newCookies.append(Self.rememberCookie(rotated))
            }
            return id
        }
        cookies = newCookies
    }

    static func rememberCookie(_ value: String) -> String {
        let expiry = UnixTime.now + 10 * 86_400
        return "AjaXplorer-remember=\(value); expires=\(UnixTime.http(expiry)); Max-Age=864000; path=/; HttpOnly"
    }

    /// The session as it is now.
    var session: Session {
        core.withState { $0.sessions[sessionID] } ?? Session()
    }

    mutating func updateSession(_ body: (inout Session) -> Void) {
        let id = sessionID
        core.withState { state in
            var session = state.sessions[id] ?? Session()
            body(&session)
            state.sessions[id] = session
        }
    }

    /// `session_regenerate_id`.
    mutating func regenerate() {
        let old = sessionID
        sessionID = core.withState { $0.sessions.regenerate(old) }
        cookies.removeAll { $0.hasPrefix("AjaXplorer=") }
        cookies.append("AjaXplorer=\(sessionID); path=/; HttpOnly")
    }

    mutating func addCookie(_ cookie: String) {
        cookies.append(cookie)
    }

    /// The HTTP response: session headers, cookies, then the body's content type.
    func finish(_ outcome: Outcome) -> Response {
        switch outcome {
        case .response(let response):
            return response
        case .body(let body):
            var headers: [(String, String)] = []
            headers += Reply.noCache
            headers += cookies.map { ("Set-Cookie", $0) }
            headers += body.extraHeaders
            headers.append((body.headerName, body.contentType))
            if body.withoutLength { return Reply.lengthless(body.data, status: body.status, headers: headers) }
            return Reply.bytes(body.data, status: body.status, headers: headers)
        }
    }
}

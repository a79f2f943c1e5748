import Foundation
import Hummingbird

/// `/ocs/v1.php/…` and `/ocs/v2.php/…`: capabilities, the current user, the share API.
struct OCSRouter {
    let core: ServerCore

    func respond(_ req: ServerRequest, segments: [String]) -> Response {
        guard let first = segments.first, first == "v1.php" || first == "v2.php" else {
            return Reply.bytes(Data("Not found".utf8), status: 404, headers: [("Content-Type", "text/html; charset=UTF-8")])
        }
        let accept = req.header("Accept")?.lowercased() ?? ""
        let format = req.queryValue("format")?.lowercased()
        let json = format == "json" || (format == nil && accept.contains("application/json"))
        let style = OCSAnswer.Style(version: first == "v1.php" ? 1 : 2, json: json, flavor: core.flavor)
        let rest = Array(segments.dropFirst())
        let unauthorised = OCSAnswer.failure(997, core.isNextcloud ? "" : "Unauthorised")
        let user = core.authenticatedUser(req)
        // Credentials that are sent must be right, on every route: a wrong password is refused
        // (HTTP 401, OCS 997) before any controller runs, the public capabilities included.
        if user == nil, req.header("Authorization") != nil { return unauthorised.response(style) }
        if rest == ["cloud", "capabilities"] {
            // Public (`#[PublicPage]`): without credentials it still answers.
            return OCSAnswer.ok(Capabilities.value(core)).response(style)
        }
        guard let user else { return unauthorised.response(style) }
        guard req.header("OCS-APIRequest")?.lowercased() == "true" else { return unauthorised.response(style) }
        let answer: OCSAnswer
        switch rest {
        case ["cloud", "user"]:
            answer = .ok(userData(user))
        case ["core", "apppassword"] where req.method == "DELETE":
            answer = LoginFlowEndpoint.revoke(core, req)
        case let path where path.starts(with: ["apps", "files_sharing", "api", "v1", "shares"]) && path.count <= 6:
            let api = ShareAPI(core: core, user: user, params: Self.parameters(req))
            answer = api.handle(method: req.method, id: path.count == 6 ? path[5] : nil, query: req)
        default:
            answer = .failure(998, "Invalid query, please check the syntax. API specifications are here: http://www.freedesktop.org/wiki/Specifications/open-collaboration-services.")
        }
        return answer.response(style)
    }

    /// `cloud/user`: ownCloud 10's `id`, `display-name`, `email`; Nextcloud's adds `enabled` and `quota`.
    private func userData(_ user: String) -> OCSValue {
        let name = core.configuration.displayName(user)
        guard core.isNextcloud else {
            return .object([("id", .string(user)), ("display-name", .string(name)), ("email", .null)])
        }
        let used = core.withState { state in state.files.roots[user].map { state.files.size(of: $0) } ?? 0 }
        let quota = core.configuration.quotaBytes
        let free = quota.map { max(0, $0 - used) } ?? -3
        let relative = quota.map { $0 > 0 ? (Double(used) / Double($0) * 10000).rounded() / 100 : 0 } ?? 0
        return .object([
            ("enabled", .bool(true)), ("id", .string(user)), ("display-name", .string(name)), ("email", .null),
            ("quota", .object([
                ("free", .int(free)), ("used", .int(used)), ("total", .int(quota ?? (used + max(free, 0)))),
                ("relative", .double(relative)),
            ])),
        ])
    }

    /// The request's parameters: the query, then the body (form-encoded or JSON), the body winning.
    static func parameters(_ req: ServerRequest) -> [String: String] {
        var out: [String: String] = [:]
        for (name, value) in req.query { out[name] = value }
        let type = req.header("Content-Type")?.lowercased() ?? ""
        if type.contains("application/json") {
            if case .object(let pairs)? = OCSValue.parse(json: req.body) {
                for (name, value) in pairs {
                    switch value {
                    case .string(let text): out[name] = text
                    case .int(let number): out[name] = String(number)
                    case .bool(let flag): out[name] = flag ? "true" : "false"
                    case .double(let number): out[name] = String(number)
                    default: break
                    }
                }
            }
        } else if !req.body.isEmpty {
            for (name, value) in FormCodec.parse(String(decoding: req.body, as: UTF8.self)) { out[name] = value }
        }
        return out
    }
}

import Foundation
import Hummingbird

extension NuxeoRouter {
    /// Basic (configured users), `X-Authentication-Token`, `?token=`, or `Bearer`
    /// with a token issued by the token servlet. Cookies are ignored.
    func authenticate(_ req: ServerRequest) -> String? {
        if let authorization = req.header("Authorization") {
            let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2, parts[0].lowercased() == "basic",
               let decoded = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces)).flatMap({ String(data: $0, encoding: .utf8) }),
               let colon = decoded.firstIndex(of: ":") {
                let user = String(decoded[..<colon])
                let password = String(decoded[decoded.index(after: colon)...])
                if core.configuration.users[user] == password { return user }
            } else if parts.count == 2, parts[0].lowercased() == "bearer",
                      let user = core.withState({ $0.tokens.user(for: parts[1].trimmingCharacters(in: .whitespaces)) }) {
                return user
            }
        }
        if let token = req.header("X-Authentication-Token") ?? req.queryValue("token"),
           let user = core.withState({ $0.tokens.user(for: token) }) {
            return user
        }
        return nil
    }

    static func isAdministrator(_ user: String) -> Bool { user == "Administrator" }

    /// `GET /authentication/token?applicationName&deviceId&permission[&revoke=true]`.
    func tokenServlet(_ req: ServerRequest) throws -> Response {
        guard req.method == "GET" else { return Reply.empty(405, headers: [("Allow", "GET")]) }
        let app = req.queryValue("applicationName") ?? ""
        let device = req.queryValue("deviceId") ?? ""
        guard !app.isEmpty, !device.isEmpty else { return Reply.empty(400) }
        let key = TokenStore.Key(user: req.user, application: app, device: device)
        if req.queryValue("revoke")?.lowercased() == "true" {
            let revoked = core.withState { $0.tokens.revoke(key) }
            let subject = "userName \(req.user), applicationName \(app) and deviceId \(device)"
            return revoked
                ? Reply.text(202, "Token revoked for \(subject).")
                : Reply.text(400, "No token found for \(subject); you can't revoke it.")
        }
        guard let permission = req.queryValue("permission"), !permission.isEmpty else { return Reply.empty(400) }
        let token = core.withState { $0.tokens.acquire(key) }
        return Reply.text(201, token)
    }

    /// `GET /api/v1/me` → `user` entity (user.json shape).
    func me(_ req: ServerRequest) throws -> Response {
        guard req.method == "GET" else { throw NuxeoError(status: 405, message: "Method Not Allowed") }
        let admin = Self.isAdministrator(req.user)
        let groups = admin ? ["administrators"] : ["members"]
        return Reply.json(.object([
            ("entity-type", .string("user")),
            ("id", .string(req.user)),
            ("properties", .object([
                ("firstName", .string(admin ? "Admin" : req.user)),
                ("lastName", .string(admin ? "Istrator" : "")),
                ("tenantId", .null),
                ("groups", .array(groups.map(NXJSON.string))),
                ("company", .string("Strata")),
                ("email", .string("\(req.user)@example.com")),
                ("username", .string(req.user)),
            ])),
            ("extendedGroups", .array(groups.map { group in
                .object([("name", .string(group)), ("label", .string(group.capitalized + " group")), ("url", .string("group/\(group)"))])
            })),
            ("isAdministrator", .bool(admin)),
            ("isAnonymous", .bool(false)),
        ]))
    }

    /// `POST /api/v1/automation/login` → `login` entity.
    func login(_ req: ServerRequest) -> Response {
        let admin = Self.isAdministrator(req.user)
        return Reply.json(.object([
            ("entity-type", .string("login")),
            ("username", .string(req.user)),
            ("isAdministrator", .bool(admin)),
            ("groups", .array([.string(admin ? "administrators" : "members")])),
        ]))
    }

    /// `GET /json/cmis` → repository infos with `productVersion` 10.10 (detection).
    func cmis(_ req: ServerRequest) -> Response {
        let base = core.baseURL()
        let root = core.withState { $0.repository.rootUID }
        return Reply.json(.object([("default", .object([
            ("repositoryId", .string("default")),
            ("repositoryName", .string("Nuxeo Repository default")),
            ("repositoryDescription", .string("Nuxeo Repository default")),
            ("vendorName", .string("Nuxeo")),
            ("productName", .string("Nuxeo OpenCMIS Connector")),
            ("productVersion", .string("10.10")),
            ("rootFolderId", .string(root)),
            ("cmisVersionSupported", .string("1.1")),
            ("thinClientURI", .string(base + "/")),
            ("principalIdAnonymous", .string("Guest")),
            ("principalIdAnyone", .string("Everyone")),
            ("repositoryUrl", .string(base + "/json/cmis/default/")),
            ("rootFolderUrl", .string(base + "/json/cmis/default/root")),
        ]))]))
    }
}

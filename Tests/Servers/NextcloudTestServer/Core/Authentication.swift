import Foundation

/// Who a request speaks for: Basic with a password or an app password, or a bearer token.
enum Authentication {
    /// The user the `Authorization` header proves, or `nil`.
    static func user(_ request: ServerRequest, _ configuration: NextcloudTestServer.Configuration) -> String? {
        guard let header = request.header("Authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0].lowercased() {
        case "basic":
            guard let data = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces)),
                let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
            else { return nil }
            let user = String(text[..<colon])
            let secret = String(text[text.index(after: colon)...])
            if let password = configuration.users[user], password == secret { return user }
            if configuration.appPasswords[secret] == user, configuration.users[user] != nil { return user }
            return nil
        case "bearer":
            guard let user = configuration.bearerTokens[parts[1].trimmingCharacters(in: .whitespaces)],
                configuration.users[user] != nil
            else { return nil }
            return user
        default:
            return nil
        }
    }

    /// The 401 Sabre answer, with Nextcloud's message and `WWW-Authenticate` challenge.
    static func challenge(_ flavor: NextcloudTestServer.Configuration.Flavor, sentCredentials: Bool) -> SabreError {
        let realm = flavor == .nextcloud ? "Nextcloud" : "ownCloud"
        let message = sentCredentials
            ? "Username or password was incorrect"
            : "No public access to this resource., No 'Authorization: Basic' header found. Either the client didn't send one, or the server is misconfigured, No 'Authorization: Bearer' header found. Either the client didn't send one, or the server is mis-configured"
        var error = SabreError(401, "Sabre\\DAV\\Exception\\NotAuthenticated", message)
        error.extraHeaders = [("WWW-Authenticate", "Basic realm=\"\(realm)\", charset=\"UTF-8\"")]
        return error
    }
}

import Foundation
import NIOConcurrencyHelpers

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Who a request speaks for: Basic with a password or an app password, or a bearer token (one of
/// `bearerTokens`, or one the authorization server of `introspection` says is active).
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
            let token = parts[1].trimmingCharacters(in: .whitespaces)
            if let user = configuration.bearerTokens[token], configuration.users[user] != nil { return user }
            guard let introspection = configuration.introspection, let user = introspection.user(of: token),
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

extension NextcloudTestServer.Configuration {
    /// An OAuth2 authorization server that vouches for bearer tokens (RFC 7662 token introspection),
    /// as Nextcloud's and ownCloud's `oauth2` apps do for the tokens they issued.
    ///
    /// Every request with a bearer token not in `bearerTokens` asks it, with nothing cached, so a
    /// token revoked there is refused at once. The token's `username` must be one of `users`.
    public struct Introspection: Sendable {
        /// The introspection endpoint, such as django-oauth-toolkit's `…/o/introspect/`.
        public var url: URL
        /// The resource server's client id and secret there (HTTP Basic).
        public var clientID: String
        public var clientSecret: String

        /// Creates the settings.
        public init(url: URL, clientID: String, clientSecret: String) {
            self.url = url
            self.clientID = clientID
            self.clientSecret = clientSecret
        }

        /// The user `token` speaks for, if the authorization server says it is active.
        ///
        /// Blocking: the server's handlers are synchronous. The wait is for another process, and
        /// the answer comes on URLSession's own threads, so it cannot starve itself.
        func user(of token: String) -> String? {
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            let pair = Data("\(clientID):\(clientSecret)".utf8).base64EncodedString()
            request.setValue("Basic \(pair)", forHTTPHeaderField: "Authorization")
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            request.httpBody = Data("token=\(token.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")".utf8)
            request.timeoutInterval = 10
            let answer = NIOLockedValueBox<Data?>(nil)
            let done = DispatchSemaphore(value: 0)
            URLSession.shared.dataTask(with: request) { data, response, _ in
                if (response as? HTTPURLResponse)?.statusCode == 200 { answer.withLockedValue { $0 = data } }
                done.signal()
            }.resume()
            done.wait()
            guard let data = answer.withLockedValue({ $0 }),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                object["active"] as? Bool == true
            else { return nil }
            return object["username"] as? String
        }
    }
}

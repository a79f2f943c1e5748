import Foundation
import HTTPProviderKit
import Logging
import ProviderAPI

/// The OAuth2 sign-in of `strata login --oauth2`.
enum OAuth2Login {
    /// Signs in through OAuth2 at the server of `url` (adapter kind `kind`; `options` are the adapter options,
    /// holding the endpoints and client id when the adapter's defaults do not fit): the device flow when `device`,
    /// else authorization code with PKCE through the browser. `present(message, browserURL)` shows the user what to
    /// do (the caller prints `message` and opens `browserURL` in a browser when there is one).
    static func signIn(
        url: URL, kind: String, options: [String: String], device: Bool, transport: any HTTPTransport,
        present: @escaping @Sendable (_ message: String, _ browserURL: URL?) -> Void
    ) async throws -> Credentials {
        let client = try client(url: url, kind: kind, options: options)
        return device
            ? try await OAuth2SignIn.device(client, transport: transport, present: present)
            : try await OAuth2SignIn.authorizationCode(client, transport: transport, present: present)
    }

    /// The adapter options that set the OAuth2 client.
    enum Option {
        static let clientID = "oauth2.client-id"
        static let clientSecretFile = "oauth2.client-secret-file"
        static let authorizeURL = "oauth2.authorize-url"
        static let tokenURL = "oauth2.token-url"
        static let deviceURL = "oauth2.device-url"
        static let scope = "oauth2.scope"
        static let revokeURL = "oauth2.revoke-url"
    }

    /// Revokes an OAuth2 login at the revocation endpoint `-o oauth2.revoke-url` names (RFC 7009):
    /// the refresh token first (which ends the grant on most servers), then the access token.
    /// Returns `false` without a request when no endpoint is named: Nextcloud's and ownCloud's
    /// oauth2 apps and Nuxeo document none.
    static func revoke(_ login: Credentials, options: [String: String], transport: any HTTPTransport) async throws -> Bool {
        guard let url = try endpoint(Option.revokeURL, options) else { return false }
        guard let tokenURL = login.tokenURL, let clientID = login.clientID else {
            throw ProviderError(.invalidArgument, "the saved OAuth2 login names no client to revoke it as")
        }
        let client = OAuth2TokenClient(
            tokenURL: tokenURL, clientID: clientID, clientSecret: login.clientSecret, transport: transport,
            logger: Logger(label: "strata.oauth2"))
        if let refresh = login.refreshToken { try await client.revoke(refresh, hint: "refresh_token", at: url) }
        if let access = login.accessToken { try await client.revoke(access, hint: "access_token", at: url) }
        return true
    }

    /// The client of the server of `url`: the adapter's documented endpoints under the server's
    /// root, each overridable with an option; the client id from `oauth2.client-id` (an admin
    /// registers the client on the server: there is no shared default), the secret of a
    /// confidential client read from `oauth2.client-secret-file` (never stored in remotes.json).
    static func client(url: URL, kind: String, options: [String: String]) throws -> OAuth2Client {
        guard let clientID = options[Option.clientID], !clientID.isEmpty else {
            throw PrintedError(
                description: "OAuth2 sign-in needs the client id the server's administrator registered: -o \(Option.clientID)=…")
        }
        let defaults = defaultEndpoints(url: url, kind: kind)
        guard let tokenURL = try endpoint(Option.tokenURL, options) ?? defaults.token else {
            throw PrintedError(description: "no OAuth2 token endpoint is known for the \(kind) adapter: -o \(Option.tokenURL)=…")
        }
        var secret: String?
        if let path = options[Option.clientSecretFile] {
            let text = try FileErrorText.doing("read the OAuth2 client secret") {
                try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
            }
            secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return OAuth2Client(
            authorizeURL: try endpoint(Option.authorizeURL, options) ?? defaults.authorize, tokenURL: tokenURL,
            deviceURL: try endpoint(Option.deviceURL, options), clientID: clientID, clientSecret: secret,
            scope: options[Option.scope])
    }

    /// The endpoints the adapter's server documents, under the root of `url`:
    /// - Nextcloud and ownCloud (their `oauth2` app): `index.php/apps/oauth2/authorize` and
    ///   `index.php/apps/oauth2/api/v1/token`, below the folder that holds `remote.php`;
    /// - Nuxeo: `oauth2/authorization` and `oauth2/token` below the context path (`/nuxeo`), as
    ///   Nuxeo's "Using OAuth2" page names them.
    /// Neither offers the device flow: `oauth2.device-url` names a server's device endpoint.
    static func defaultEndpoints(url: URL, kind: String) -> (authorize: URL?, token: URL?) {
        let text = url.absoluteString
        func under(_ root: String, _ path: String) -> URL? {
            URL(string: (root.hasSuffix("/") ? root : root + "/") + path)
        }
        switch kind {
        case "nextcloud", "owncloud":
            let root = text.range(of: "/remote.php").map { String(text[..<$0.lowerBound]) } ?? origin(of: url)
            return (under(root, "index.php/apps/oauth2/authorize"), under(root, "index.php/apps/oauth2/api/v1/token"))
        case "nuxeo":
            let root = text.range(of: "/api/").map { String(text[..<$0.lowerBound]) } ?? text
            return (under(root, "oauth2/authorization"), under(root, "oauth2/token"))
        default:
            return (nil, nil)
        }
    }

    private static func origin(of url: URL) -> String {
        var components = URLComponents()
        components.scheme = url.scheme
        components.host = url.host
        components.port = url.port
        return components.string ?? url.absoluteString
    }

    private static func endpoint(_ option: String, _ options: [String: String]) throws -> URL? {
        guard let text = options[option] else { return nil }
        guard let url = URL(string: text), URLChecks.isValidHTTPURL(url) else {
            throw PrintedError(description: "-o \(option) is not an http(s) URL: \(Redactor.redact(text))")
        }
        return url
    }
}

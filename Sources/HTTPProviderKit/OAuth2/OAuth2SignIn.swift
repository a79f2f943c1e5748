import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ProviderAPI

/// Where and as whom a client signs in with OAuth2.
package struct OAuth2Client: Sendable {
    /// The authorization endpoint (for the authorization code flow).
    package var authorizeURL: URL?
    /// The token endpoint.
    package var tokenURL: URL
    /// The device authorization endpoint (RFC 8628), where the server offers the device flow.
    package var deviceURL: URL?
    /// The client's id and, for a confidential client, its secret.
    package var clientID: String
    package var clientSecret: String?
    /// The scopes to ask for, space-separated; `nil` for the server's default.
    package var scope: String?

    package init(
        authorizeURL: URL?, tokenURL: URL, deviceURL: URL? = nil, clientID: String, clientSecret: String? = nil, scope: String? = nil
    ) {
        self.authorizeURL = authorizeURL
        self.tokenURL = tokenURL
        self.deviceURL = deviceURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
    }
}

/// The OAuth2 sign-in flows of a native client: authorization code with PKCE through the
/// browser and a loopback redirect (RFC 6749 §4.1, RFC 7636, RFC 8252), and the device
/// authorization grant (RFC 8628). Both end in `oauth2` credentials that renew themselves.
package enum OAuth2SignIn {
    /// Signs in through the browser: `present` is told the authorization URL to open, the
    /// redirect comes back to a loopback listener, and the code is exchanged with the PKCE verifier.
    ///
    /// - Throws: `unauthorized` when the user or the server refuses; `cancelled` when the browser
    ///   brings nothing back within `timeout`.
    package static func authorizationCode(
        _ client: OAuth2Client, transport: any HTTPTransport, timeout: Duration = .seconds(300),
        logger: Logger = Logger(label: "strata", factory: { _ in SwiftLogNoOpLogHandler() }),
        present: @escaping @Sendable (_ message: String, _ browserURL: URL?) -> Void
    ) async throws -> Credentials {
        guard let authorizeURL = client.authorizeURL else {
            throw ProviderError(.invalidArgument, "no OAuth2 authorization endpoint is known for this server (set oauth2.authorize-url)")
        }
        let pkce = OAuth2PKCE()
        let state = OAuth2PKCE.random()
        let listener = try await OAuth2RedirectListener.start(state: state)
        var components = URLComponents(url: authorizeURL, resolvingAgainstBaseURL: false)
        var items = components?.queryItems ?? []
        items += [
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: client.clientID),
            URLQueryItem(name: "redirect_uri", value: listener.redirectURI), URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "code_challenge", value: pkce.challenge),
            URLQueryItem(name: "code_challenge_method", value: pkce.method),
        ]
        if let scope = client.scope { items.append(URLQueryItem(name: "scope", value: scope)) }
        components?.queryItems = items
        guard let url = components?.url else {
            await listener.close()
            throw ProviderError(.invalidArgument, "invalid OAuth2 authorization endpoint \(Redactor.redact(url: authorizeURL))")
        }
        present("Sign in in your browser at:\n  \(url.absoluteString)\nWaiting for the browser to come back…", url)
        let code: String
        do {
            code = try await listener.code(timeout: timeout)
        } catch {
            await listener.close()
            throw error
        }
        await listener.close()
        let tokens = OAuth2TokenClient(
            tokenURL: client.tokenURL, clientID: client.clientID, clientSecret: client.clientSecret, transport: transport, logger: logger)
        let issued = Date()
        switch try await tokens.exchange(code: code, redirectURI: listener.redirectURI, verifier: pkce.verifier) {
        case .tokens(let answer): return answer.credentials(client: tokens, now: issued)
        case .refused(let error, let description, let status): throw refusal(error, description, status)
        }
    }

    /// Signs in with the device authorization grant: `present` is told the verification URI and
    /// the user code, then the token endpoint is polled at the server's interval (longer after
    /// `slow_down`) until the user approves, refuses, or the code expires.
    ///
    /// - Parameter sleep: waits between polls (tests pass a shorter one).
    package static func device(
        _ client: OAuth2Client, transport: any HTTPTransport,
        logger: Logger = Logger(label: "strata", factory: { _ in SwiftLogNoOpLogHandler() }),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        present: @escaping @Sendable (_ message: String, _ browserURL: URL?) -> Void
    ) async throws -> Credentials {
        guard let deviceURL = client.deviceURL else {
            throw ProviderError(.unsupported, "this server offers no OAuth2 device sign-in (set oauth2.device-url if it does)")
        }
        var form = ["client_id": client.clientID]
        if let scope = client.scope { form["scope"] = scope }
        var request = TransportRequest(
            method: .POST, url: deviceURL, headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: .bytes(ByteBuffer(string: OAuth2Form.encode(form))), isIdempotent: false, carriesCredentials: true)
        request.label = "OAuth2 device authorization"
        let executor = RequestExecutor(transport: transport, authenticator: NoAuthenticator(), retry: .none, logger: logger)
        let response = try await executor.execute(request)
        let data = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
        if !response.isSuccess, let refused = try? JSONDecoder().decode(OAuth2Refusal.self, from: data) {
            throw refusal(refused.error, refused.errorDescription, response.status)
        }
        guard response.isSuccess, let grant = try? JSONDecoder().decode(DeviceGrant.self, from: data) else {
            throw ProviderError(
                ProviderError.code(forHTTPStatus: response.isSuccess ? 502 : response.status),
                "the device authorization endpoint answered HTTP \(response.status) without a device code",
                httpStatus: response.status, request: request.summary)
        }
        let verification = URL(string: grant.verificationURIComplete ?? grant.verificationURI)
        present(
            "To sign in, open \(grant.verificationURI) and enter the code \(grant.userCode)\nWaiting for the approval…",
            verification)
        let tokens = OAuth2TokenClient(
            tokenURL: client.tokenURL, clientID: client.clientID, clientSecret: client.clientSecret, transport: transport, logger: logger)
        var interval = Duration.seconds(max(grant.interval ?? 5, 1))
        let deadline = ContinuousClock.now + .seconds(grant.expiresIn ?? 1800)
        while true {
            try await sleep(interval)
            let issued = Date()
            switch try await tokens.poll(deviceCode: grant.deviceCode) {
            case .tokens(let answer):
                return answer.credentials(client: tokens, now: issued)
            case .refused("authorization_pending", _, _):
                break
            case .refused("slow_down", _, _):
                interval += .seconds(5)  // RFC 8628 §3.5
            case .refused("expired_token", _, _):
                throw ProviderError(.unauthorized, "the sign-in code expired before it was approved: sign in again")
            case .refused("access_denied", _, _):
                throw ProviderError(.unauthorized, "the sign-in was refused (access_denied)")
            case .refused(let error, let description, let status):
                throw refusal(error, description, status)
            }
            if ContinuousClock.now >= deadline {
                throw ProviderError(.unauthorized, "the sign-in code expired before it was approved: sign in again")
            }
        }
    }

    /// The error of a refusal by the token endpoint.
    private static func refusal(_ error: String, _ description: String?, _ status: Int) -> ProviderError {
        let reason = [error, description].compactMap { $0 }.joined(separator: ": ")
        return ProviderError(.unauthorized, "the authorization server refused the sign-in (\(Redactor.redact(reason)))", httpStatus: status)
    }

    /// A device authorization response (RFC 8628 §3.2).
    private struct DeviceGrant: Decodable {
        var deviceCode: String
        var userCode: String
        var verificationURI: String
        var verificationURIComplete: String?
        var expiresIn: Int?
        var interval: Int?

        enum CodingKeys: String, CodingKey {
            case deviceCode = "device_code", userCode = "user_code", verificationURI = "verification_uri"
            case verificationURIComplete = "verification_uri_complete", expiresIn = "expires_in", interval
        }
    }
}

import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ProviderAPI

/// Asks an OAuth2 token endpoint (RFC 6749 §3.2) for tokens: a refresh, an authorization code
/// exchange, a device code poll. Every request is a form `POST` through the given transport,
/// with the client authenticated as RFC 6749 §2.3.1 says: a confidential client by HTTP Basic
/// (its id and secret form-encoded), then by form fields if the server refuses Basic; a public
/// client by its `client_id` alone.
package struct OAuth2TokenClient: Sendable {
    /// The token endpoint.
    package let tokenURL: URL
    /// The client's id.
    package let clientID: String
    /// The confidential client's secret, if it has one.
    package let clientSecret: String?
    private let executor: RequestExecutor

    /// A client of `tokenURL` for `clientID`, sending through `transport` (no retries: a token
    /// request is not idempotent, a code is spent once).
    package init(tokenURL: URL, clientID: String, clientSecret: String?, transport: any HTTPTransport, logger: Logger) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        executor = RequestExecutor(
            transport: transport, authenticator: NoAuthenticator(), retry: .none, logger: logger,
            defaultHeaders: ["User-Agent": "Strata/1.0", "Accept": "application/json"])
    }

    /// The answer of the token endpoint, refusals included.
    package enum Answer: Sendable {
        /// New tokens.
        case tokens(OAuth2Tokens)
        /// A refusal (RFC 6749 §5.2): its `error` code and `error_description`, and the HTTP status.
        case refused(error: String, description: String?, status: Int)
    }

    /// Renews tokens with `refreshToken` (`grant_type=refresh_token`, RFC 6749 §6).
    package func refresh(_ refreshToken: String) async throws -> Answer {
        try await request(["grant_type": "refresh_token", "refresh_token": refreshToken])
    }

    /// Exchanges an authorization `code` for tokens (RFC 6749 §4.1.3), with the PKCE `verifier` (RFC 7636).
    package func exchange(code: String, redirectURI: String, verifier: String) async throws -> Answer {
        try await request([
            "grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI, "code_verifier": verifier,
        ])
    }

    /// Asks once for the tokens of a device authorization (RFC 8628 §3.4).
    package func poll(deviceCode: String) async throws -> Answer {
        try await request(["grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": deviceCode])
    }

    /// Posts `form` to the token endpoint and reads its JSON answer.
    package func request(_ form: [String: String]) async throws -> Answer {
        let answer = try await post(form, basic: clientSecret != nil)
        // A server that wants the client's secret in the form refuses Basic with invalid_client.
        if clientSecret != nil, case .refused(let error, _, let status) = answer, status == 401 || error == "invalid_client" {
            return try await post(form, basic: false)
        }
        return answer
    }

    /// Revokes `token` at the revocation endpoint `url` (RFC 7009), `hint` saying what it is
    /// (`refresh_token` or `access_token`), the client authenticated as at the token endpoint. A
    /// token the server no longer knows counts as revoked (RFC 7009 §2.2: the server answers 200
    /// for it too). Throws the server's refusal (its `error` code, never the token) or a
    /// transport failure.
    package func revoke(_ token: String, hint: String, at url: URL) async throws {
        var (response, refusal, summary) = try await revocation(token, hint: hint, at: url, basic: clientSecret != nil)
        if clientSecret != nil, response.status == 401 || refusal?.error == "invalid_client" {
            (response, refusal, summary) = try await revocation(token, hint: hint, at: url, basic: false)
        }
        if response.status == 200 { return }
        let reason = refusal.map { ": \($0.error)" + ($0.errorDescription.map { " (\(Redactor.redact($0)))" } ?? "") } ?? ""
        throw ProviderError(
            ProviderError.code(forHTTPStatus: response.status),
            "the revocation endpoint answered HTTP \(response.status)\(reason)", httpStatus: response.status, request: summary,
            retryAfter: response.retryAfter)
    }

    private func revocation(_ token: String, hint: String, at url: URL, basic: Bool) async throws -> (
        TransportResponse, OAuth2Refusal?, String
    ) {
        let request = formRequest(["token": token, "token_type_hint": hint], to: url, basic: basic, label: "OAuth2 revocation")
        let response = try await executor.execute(request)
        let body = try await response.body.collect(upTo: 1 << 20)
        return (response, try? JSONDecoder().decode(OAuth2Refusal.self, from: Data(body.readableBytesView)), request.summary)
    }

    /// A form `POST` of `fields` to `url`, the client authenticated by Basic or in the form.
    private func formRequest(_ fields: [String: String], to url: URL, basic: Bool, label: String) -> TransportRequest {
        var form = fields
        var headers: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        if basic, let clientSecret {
            let pair = OAuth2Form.encode(clientID) + ":" + OAuth2Form.encode(clientSecret)
            headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        } else {
            form["client_id"] = clientID
            if let clientSecret { form["client_secret"] = clientSecret }
        }
        var request = TransportRequest(
            method: .POST, url: url, headers: headers, body: .bytes(ByteBuffer(string: OAuth2Form.encode(form))),
            isIdempotent: false, carriesCredentials: true)
        request.label = label
        return request
    }

    private func post(_ fields: [String: String], basic: Bool) async throws -> Answer {
        let request = formRequest(fields, to: tokenURL, basic: basic, label: "OAuth2 token request")
        let response = try await executor.execute(request)
        let body = try await response.body.collect(upTo: 1 << 20)
        let data = Data(body.readableBytesView)
        if response.isSuccess {
            guard let tokens = try? JSONDecoder().decode(OAuth2Tokens.self, from: data), !tokens.accessToken.isEmpty else {
                throw ProviderError(
                    .invalidResponse, "the token endpoint answered without an access token", httpStatus: response.status,
                    request: request.summary)
            }
            return .tokens(tokens)
        }
        if let refusal = try? JSONDecoder().decode(OAuth2Refusal.self, from: data) {
            return .refused(error: refusal.error, description: refusal.errorDescription, status: response.status)
        }
        // No RFC 6749 refusal: the body is not quoted, a token endpoint's page may echo the form.
        throw ProviderError(
            ProviderError.code(forHTTPStatus: response.status), "the token endpoint answered HTTP \(response.status)",
            httpStatus: response.status, request: request.summary, retryAfter: response.retryAfter)
    }
}

/// Tokens from a token endpoint (RFC 6749 §5.1).
package struct OAuth2Tokens: Sendable, Decodable {
    package var accessToken: String
    package var refreshToken: String?
    package var expiresIn: Double?
    package var tokenType: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", refreshToken = "refresh_token", expiresIn = "expires_in", tokenType = "token_type"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType)
        // Some servers send the lifetime as a string.
        if let seconds = try? container.decodeIfPresent(Double.self, forKey: .expiresIn) {
            expiresIn = seconds
        } else {
            expiresIn = (try? container.decodeIfPresent(String.self, forKey: .expiresIn)).flatMap { $0.flatMap(Double.init) }
        }
    }

    /// The OAuth2 credentials of these tokens, issued at `now` by `client`; the refresh token
    /// stays `previousRefreshToken` when the server sent no new one (RFC 6749 §6).
    package func credentials(client: OAuth2TokenClient, now: Date, previousRefreshToken: String? = nil) -> Credentials {
        .oauth2(
            accessToken: accessToken, refreshToken: refreshToken ?? previousRefreshToken,
            expiresAt: expiresIn.map { now.addingTimeInterval($0) }, tokenURL: client.tokenURL, clientID: client.clientID,
            clientSecret: client.clientSecret)
    }
}

/// A token endpoint's refusal (RFC 6749 §5.2).
struct OAuth2Refusal: Decodable {
    var error: String
    var errorDescription: String?

    enum CodingKeys: String, CodingKey {
        case error, errorDescription = "error_description"
    }
}

/// `application/x-www-form-urlencoded` as RFC 6749 Appendix B says.
package enum OAuth2Form {
    /// The unreserved characters, which stay as they are.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `value` form-encoded (a space is `%20`, which every server reads).
    package static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    /// `fields` as a form body, in name order.
    package static func encode(_ fields: [String: String]) -> String {
        fields.sorted { $0.key < $1.key }.map { encode($0.key) + "=" + encode($0.value) }.joined(separator: "&")
    }
}

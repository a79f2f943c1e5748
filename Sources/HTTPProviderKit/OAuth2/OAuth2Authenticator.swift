import Foundation
import Logging
import NIOHTTP1
import ProviderAPI

/// Sends an OAuth2 login's access token as `Bearer` and renews it at the token endpoint with the
/// refresh token (RFC 6749 §6): before the token expires (within ``margin``), and when the server
/// refuses it (the first 401; ``RequestExecutor`` then replays the request once).
///
/// One renewal runs at a time, shared by every request that needs it, and by every
/// authenticator made from the same credentials in this process, so a rotated refresh token is
/// used once. The renewed credentials (the new refresh token among them) are handed to
/// `onRenew`, which saves them where the login came from: `ProviderServices.credentialsRenewed`
/// when made by `ProviderConfiguration.httpAuthenticator()`.
///
/// A renewal the authorization server refuses (`invalid_grant`: the refresh token expired or was
/// revoked) throws `ProviderError.Code.unauthorized` with the server's `error` and
/// `error_description`; it is remembered, so later requests fail at once without asking the
/// token endpoint again. No token ever reaches a log line, a description or an error.
///
/// ```swift
/// let auth = OAuth2Authenticator(credentials: login, transport: transport) { renewed in
///     try? await store.setCredentials(renewed, for: "work")
/// }
/// ```
public struct OAuth2Authenticator: Authenticator, CustomStringConvertible, CustomReflectable {
    private let session: OAuth2Session
    /// How long before its expiry an access token is renewed: one minute unless told otherwise.
    public let margin: Duration

    /// An authenticator for the OAuth2 login `credentials` (kind `oauth2`; another kind's access
    /// token is sent without renewal).
    ///
    /// - Parameters:
    ///   - credentials: the login: access token, refresh token, expiry, token endpoint, client.
    ///   - transport: what the token requests go through: the provider's own.
    ///   - margin: how long before expiry the token is renewed.
    ///   - logger: where renewals are logged (never a token).
    ///   - onRenew: told the renewed credentials, to save them; it must not throw.
    public init(
        credentials: Credentials, transport: any HTTPTransport, margin: Duration = .seconds(60),
        logger: Logger = Logger(label: "strata", factory: { _ in SwiftLogNoOpLogHandler() }),
        onRenew: (@Sendable (Credentials) async -> Void)? = nil
    ) {
        self.init(credentials: credentials, transport: transport, margin: margin, logger: logger, now: Date.init, onRenew: onRenew)
    }

    /// As the public initializer, with the clock read for expiry (tests move it).
    package init(
        credentials: Credentials, transport: any HTTPTransport, margin: Duration = .seconds(60), logger: Logger,
        now: @escaping @Sendable () -> Date, onRenew: (@Sendable (Credentials) async -> Void)?
    ) {
        self.margin = margin
        session = OAuth2Session.shared(for: credentials, transport: transport, onRenew: onRenew, logger: logger, now: now)
    }

    /// The login as it stands now: the renewed credentials once renewed.
    public var credentials: Credentials {
        get async { await session.credentials }
    }

    public var description: String { "OAuth2Authenticator(token: \(Redactor.mask))" }

    /// The mirror has no children, so `dump` never prints a token.
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    public func authorize(_ request: inout TransportRequest) async throws {
        let joined = try await session.join()
        var current = if let joined { joined } else { await session.credentials }
        if await session.expires(within: margin) {
            if let failure = await session.failure { throw failure }
            if await session.canRenew { current = try await session.renew(replacing: current.accessToken) }
        }
        guard let token = current.accessToken else { return }
        request.headers.replaceOrAdd(name: "Authorization", value: "Bearer \(token)")
    }

    public func refresh(after response: TransportResponse?, for request: TransportRequest) async throws -> Bool {
        let sent = request.headers.first(name: "authorization").flatMap { header in
            header.hasPrefix("Bearer ") ? String(header.dropFirst("Bearer ".count)) : nil
        }
        let current = await session.credentials
        if let sent, sent != current.accessToken { return true }  // renewed since this request was sent
        if let failure = await session.failure { throw failure }
        guard await session.canRenew else { return false }
        _ = try await session.renew(replacing: sent)
        return true
    }
}

import Foundation
import Logging
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderKit

/// The live state of one OAuth2 login, shared by every ``OAuth2Authenticator`` made from the same
/// credentials in this process: one provider's probe and its requests, two providers of one
/// remote. A rotated refresh token is spent once used, so they must all renew through one session.
actor OAuth2Session {
    private(set) var credentials: Credentials
    /// The refusal of the last renewal: the login is dead, and the token endpoint is not asked again.
    private(set) var failure: ProviderError?
    private let client: OAuth2TokenClient?
    private let renewals = SingleFlight<Credentials>()
    private let onRenew: NIOLockedValueBox<(@Sendable (Credentials) async -> Void)?>
    private let logger: Logger
    private let now: @Sendable () -> Date

    init(
        credentials: Credentials, transport: any HTTPTransport, onRenew: (@Sendable (Credentials) async -> Void)?,
        logger: Logger, now: @escaping @Sendable () -> Date
    ) {
        self.credentials = credentials
        self.onRenew = NIOLockedValueBox(onRenew)
        self.logger = logger
        self.now = now
        client = credentials.tokenURL.flatMap { url in
            credentials.clientID.map { id in
                OAuth2TokenClient(
                    tokenURL: url, clientID: id, clientSecret: credentials.clientSecret, transport: transport, logger: logger)
            }
        }
    }

    /// Whether the access token expires within `margin` (never, when the server gave no expiry).
    func expires(within margin: Duration) -> Bool {
        guard let expiresAt = credentials.expiresAt else { return false }
        let seconds = Double(margin.components.seconds) + Double(margin.components.attoseconds) / 1e18
        return now().addingTimeInterval(seconds) >= expiresAt
    }

    /// Whether the login can be renewed at all.
    var canRenew: Bool { client != nil && credentials.refreshToken != nil }

    /// The renewal under way, if any.
    func join() async throws -> Credentials? { try await renewals.join() }

    /// Renews the login, unless `spent` is no longer the access token (another request renewed it
    /// meanwhile); one renewal at a time, shared by whoever asks while it runs.
    func renew(replacing spent: String?) async throws -> Credentials {
        if let failure { throw failure }
        if let spent, spent != credentials.accessToken { return credentials }
        return try await renewals.run { [self] in try await self.performRenewal() }
    }

    private func performRenewal() async throws -> Credentials {
        if let failure { throw failure }
        guard let client, let refreshToken = credentials.refreshToken else {
            throw ProviderError(.unauthorized, "the OAuth2 login expired and has no refresh token: sign in again")
        }
        let issued = now()
        switch try await client.refresh(refreshToken) {
        case .tokens(let tokens):
            let renewed = tokens.credentials(client: client, now: issued, previousRefreshToken: refreshToken)
            credentials = renewed
            logger.debug("renewed the OAuth2 login", metadata: ["tokenURL": "\(Redactor.redact(url: client.tokenURL))"])
            await onRenew.withLockedValue { $0 }?(renewed)
            return renewed
        case .refused(let error, let description, let status):
            let reason = [error, description].compactMap { $0 }.joined(separator: ": ")
            let refusal = ProviderError(
                .unauthorized, "the authorization server refused to renew the login (\(Redactor.redact(reason))): sign in again",
                httpStatus: status, request: "POST \(Redactor.redact(url: client.tokenURL))")
            failure = refusal
            logger.warning("the OAuth2 login could not be renewed", metadata: ["error": "\(error)"])
            throw refusal
        }
    }

    /// Puts `onRenew` in place when the session had none (a provider made without a store, then
    /// one with).
    nonisolated func adopt(onRenew: (@Sendable (Credentials) async -> Void)?) {
        guard let onRenew else { return }
        self.onRenew.withLockedValue { current in
            if current == nil { current = onRenew }
        }
    }

    // MARK: The sessions of this process

    /// Sessions by the credentials they started from, held weakly.
    private static let sessions = NIOLockedValueBox<[Credentials: WeakSession]>([:])

    /// The session of `credentials`: the live one if an authenticator made from the same
    /// credentials is still in use, else a new one.
    static func shared(
        for credentials: Credentials, transport: any HTTPTransport, onRenew: (@Sendable (Credentials) async -> Void)?,
        logger: Logger, now: @escaping @Sendable () -> Date
    ) -> OAuth2Session {
        sessions.withLockedValue { table in
            if let live = table[credentials]?.session {
                live.adopt(onRenew: onRenew)
                return live
            }
            table = table.filter { $0.value.session != nil }
            let session = OAuth2Session(credentials: credentials, transport: transport, onRenew: onRenew, logger: logger, now: now)
            table[credentials] = WeakSession(session: session)
            return session
        }
    }

    private struct WeakSession: @unchecked Sendable {
        weak var session: OAuth2Session?
    }
}

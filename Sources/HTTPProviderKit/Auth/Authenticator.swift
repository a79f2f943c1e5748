import Foundation
import NIOHTTP1
import ProviderAPI
import ProviderKit

/// Prepares each request with credentials and answers authentication challenges.
///
/// ``RequestExecutor`` calls ``authorize(_:)`` before every request to the
/// provider's own origin. When a request is answered 401 (or a provider sees
/// its own "log in again" answer), ``refresh(after:for:)`` may fetch fresh
/// credentials (a new token, a new login) and return `true`; the request is
/// then replayed once. An authenticator must never loop: a second failure is
/// the caller's `ProviderError.Code.unauthorized`.
///
/// ## Topics
/// - ``PasswordAuthenticator``
/// - ``BasicAuthenticator``
/// - ``BearerAuthenticator``
/// - ``NoAuthenticator``
public protocol Authenticator: Sendable {
    /// Adds credentials to `request`.
    func authorize(_ request: inout TransportRequest) async throws
    /// Tries to renew credentials after `response` rejected `request`; `true` to replay.
    func refresh(after response: TransportResponse?, for request: TransportRequest) async throws -> Bool
}

/// Sends no credentials.
public struct NoAuthenticator: Authenticator {
    /// Creates the authenticator.
    public init() {}
    public func authorize(_ request: inout TransportRequest) async throws {}
    public func refresh(after response: TransportResponse?, for request: TransportRequest) async throws -> Bool { false }
}

/// HTTP Basic authentication, sent pre-emptively on every request.
public struct BasicAuthenticator: Authenticator, CustomStringConvertible, CustomReflectable {
    private let header: String
    /// The user name.
    public let username: String

    /// Creates the authenticator.
    public init(username: String, password: String) {
        self.username = username
        header = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }

    public func authorize(_ request: inout TransportRequest) async throws {
        request.headers.replaceOrAdd(name: "Authorization", value: header)
    }

    /// Basic credentials cannot be renewed: a 401 stands.
    public func refresh(after response: TransportResponse?, for request: TransportRequest) async throws -> Bool { false }

    public var description: String { "BasicAuthenticator(username: \(username))" }

    /// The mirror shows the user name only, so `dump` never prints the encoded password.
    public var customMirror: Mirror { Mirror(self, children: ["username": username]) }
}

/// Bearer-token authentication with an optional refresh.
public actor BearerAuthenticator: Authenticator, CustomStringConvertible, CustomReflectable {
    /// Fetches a fresh access token.
    public typealias Refresh = @Sendable () async throws -> String

    private var token: String
    private let refresher: Refresh?
    private let refreshing = SingleFlight<String>()

    /// Creates the authenticator.
    public init(token: String, refresh: Refresh? = nil) {
        self.token = token
        self.refresher = refresh
    }

    public nonisolated var description: String { "BearerAuthenticator(token: \(Redactor.mask))" }

    /// The mirror has no children, so `dump` never prints the token.
    public nonisolated var customMirror: Mirror { Mirror(self, children: [:]) }

    public func authorize(_ request: inout TransportRequest) async throws {
        if refreshing.isRunning, let fresh = try await refreshing.join() { token = fresh }
        request.headers.replaceOrAdd(name: "Authorization", value: "Bearer \(token)")
    }

    public func refresh(after response: TransportResponse?, for request: TransportRequest) async throws -> Bool {
        guard let refresher else { return false }
        let sent = request.headers.first(name: "authorization")
        if sent != "Bearer \(token)" { return true }  // another request already refreshed it
        token = try await refreshing.run { [self] in
            let fresh = try await refresher()
            await adopt(fresh)
            return fresh
        }
        return true
    }

    /// Keeps a token just fetched, before any waiter sees it.
    private func adopt(_ fresh: String) { token = fresh }
}

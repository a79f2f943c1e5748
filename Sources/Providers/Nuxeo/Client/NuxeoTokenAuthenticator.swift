import Foundation
import NIOCore
import ProviderAPI
import HTTPProviderKit
import ProviderKit

/// Nuxeo token authentication: acquires an `X-Authentication-Token` with the user's password
/// once, sends the token on every request, and acquires a new one when the server stops
/// accepting it (a revoked or expired token gives the same 401 as a wrong password).
///
/// Acquisition is single-flight: concurrent requests wait for the one acquisition. A token
/// given up front (`Credentials.token(_:)`) without a password cannot be renewed, so its
/// 401 stands.
package actor NuxeoTokenAuthenticator: Authenticator, CustomStringConvertible, CustomReflectable {
    /// Acquires a new token.
    package typealias Acquire = @Sendable () async throws -> String

    private var token: String?
    private let acquirer: Acquire?
    private let acquisition = SingleFlight<String>()
    private var acquisitions = 0

    /// Creates the authenticator with a known token, an acquirer, or both.
    package init(token: String? = nil, acquire: Acquire?) {
        self.token = token
        self.acquirer = acquire
    }

    package nonisolated var description: String { "NuxeoTokenAuthenticator(token: \(Redactor.mask))" }

    /// The mirror has no children, so `dump` never prints the token.
    package nonisolated var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The token in use, acquiring one first if there is none; for apps that keep it in a credential store.
    package func currentToken() async throws -> String {
        if let token { return token }
        return try await acquire()
    }

    /// How many tokens this authenticator has acquired.
    package var acquisitionCount: Int { acquisitions }

    /// Forgets the token, so the next request acquires a new one.
    package func forget() { token = nil }

    package func authorize(_ request: inout TransportRequest) async throws {
        let value = try await currentToken()
        request.headers.replaceOrAdd(name: "X-Authentication-Token", value: value)
    }

    package func refresh(after response: TransportResponse?, for request: TransportRequest) async throws -> Bool {
        guard acquirer != nil else { return false }
        let sent = request.headers.first(name: "x-authentication-token")
        if let token, sent != token { return true }  // another request already renewed it
        token = nil
        _ = try await acquire()
        return true
    }

    private func acquire() async throws -> String {
        guard let acquirer else {
            throw ProviderError(.unauthorized, "no Nuxeo token and no password to acquire one")
        }
        return try await acquisition.run { [self] in
            let value = try await acquirer()
            await adopt(value)
            return value
        }
    }

    /// Keeps a token just acquired, before any waiter sees it.
    private func adopt(_ value: String) {
        token = value
        acquisitions += 1
    }
}

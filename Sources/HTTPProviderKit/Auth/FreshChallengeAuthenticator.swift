import Foundation

/// An authenticator whose answers depend on a challenge the server gives and later expires (HTTP
/// Digest's nonce), so that a request that cannot be replayed after a `401` (a one-shot body) is
/// preceded by a fresh challenge: ``RequestExecutor`` sends a bodiless `OPTIONS` without
/// credentials to the same URL when ``needsFreshChallenge()`` says so, and hands the answer to
/// ``takeChallenge(from:)``.
package protocol FreshChallengeAuthenticator: Authenticator {
    /// Whether the next request with a one-shot body should fetch a fresh challenge first.
    func needsFreshChallenge() async -> Bool
    /// Takes the challenge of `response`, the answer to a request sent without credentials.
    func takeChallenge(from response: TransportResponse) async
}

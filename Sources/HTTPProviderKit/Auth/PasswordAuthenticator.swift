import Foundation
import NIOHTTP1
import ProviderAPI

/// A user name and password sent as the server asks: HTTP Basic, or HTTP Digest (RFC 7616, and
/// RFC 2617/2069 for older servers) chosen from the server's challenge.
///
/// `Credentials.httpAuthenticator(refresh:)` gives one for a user name and password. The policy:
///
/// - ``Policy/automatic`` (the default): Basic is sent with every request, as before, so a Basic
///   server costs no extra round trip. The first 401 that carries a `Digest` challenge switches
///   this authenticator to Digest for the rest of its life and the request is replayed once; from
///   then on every request is signed with Digest up front, and Basic is never sent again (a later
///   challenge for Basic alone is refused).
/// - ``Policy/challengeFirst``: nothing is sent until the server challenges; then Digest when it
///   offers Digest, else Basic. For a server known to want Digest (an adapter that remembers it),
///   so that the password is not sent in Basic first.
/// - ``Policy/digestOnly``: nothing until the server challenges, then Digest only; a server that
///   offers only Basic is refused (`ProviderError.Code.unauthorized`) without the password ever
///   being sent in Basic.
///
/// Digest: MD5, MD5-sess, SHA-256 and SHA-256-sess, `qop=auth` or no `qop` at all (RFC 2069); the
/// strongest algorithm offered wins when the server sends several challenges (SHA-256 before
/// MD5). `opaque` is echoed, each request gets a fresh `cnonce` and the next nonce count of its
/// nonce (counted in this actor, so concurrent requests never share one), the `uri` is the
/// request-target exactly as sent, and the user name is hashed when the server asks (`userhash`).
/// A `stale=true` challenge (the nonce expired, the password was right) takes the new nonce and
/// replays the request. A challenge that asks only for `qop=auth-int` or an algorithm Strata
/// lacks fails with `ProviderError.Code.unsupported`; a malformed one with
/// `ProviderError.Code.invalidResponse`.
///
/// A wrong password never loops: ``RequestExecutor`` replays a request at most once after a 401,
/// and this authenticator asks for a replay only when it has something new to send (a switch to
/// Digest, a new nonce, another realm); the second 401 is the adapter's
/// `ProviderError.Code.unauthorized`. Neither the password nor anything derived from it (the
/// Basic header, H(A1), a `response`) appears in ``description``, a mirror or a log line.
///
/// A request whose body cannot be sent twice (a one-shot stream, a copy between two servers) is
/// not replayed by ``RequestExecutor``, so it must not meet a challenge: before one, the executor
/// fetches a fresh challenge with a bodiless `OPTIONS` when this authenticator is still waiting for
/// the server's first challenge, when Basic has not been sent yet (the very first request of an
/// ``Policy/automatic`` session: a Digest-only server would refuse the Basic upload, and its body
/// cannot be sent again), or when its nonce is over a minute old (servers expire nonces after 5 to
/// 10 minutes). On a Basic server that costs one `OPTIONS` at most, once per authenticator, and
/// only when its first request is such an upload.
public actor PasswordAuthenticator: Authenticator, FreshChallengeAuthenticator, CustomStringConvertible, CustomReflectable {
    /// When Basic may be sent, and what is sent before the server has challenged.
    public enum Policy: String, Sendable, CaseIterable {
        /// Basic up front until the server asks for Digest; then Digest only.
        case automatic
        /// Nothing until the server challenges; then Digest when it offers it, else Basic.
        case challengeFirst
        /// Nothing until the server challenges; then Digest only, never Basic.
        case digestOnly
    }

    /// The scheme an authenticator is on.
    package enum Scheme: Sendable, Equatable {
        /// Nothing sent yet: waiting for the server's challenge.
        case waiting
        case basic
        case digest
    }

    /// The user name.
    public nonisolated let username: String
    /// The policy this authenticator was made with.
    public nonisolated let policy: Policy
    private let password: String
    private let basicHeader: String
    private var state: State
    /// Basic is the scheme, but no request has gone with it yet (``Policy/automatic``'s start):
    /// nothing is known of the server.
    private var basicUntried: Bool
    /// Told once, when the server is first seen to want Digest (an adapter remembers it).
    private let onDigest: (@Sendable () async -> Void)?
    /// How old a nonce may be before a request with a one-shot body fetches a fresh one.
    private let nonceFreshFor: Duration

    private enum State {
        case waiting
        case basic
        case digest(DigestChallenge, count: UInt32, since: ContinuousClock.Instant)
    }

    /// Creates the authenticator.
    public init(username: String, password: String, policy: Policy = .automatic) {
        self.init(username: username, password: password, policy: policy, onDigest: nil)
    }

    /// Creates the authenticator; `onDigest` is told once, when the server first asks for Digest.
    package init(
        username: String, password: String, policy: Policy, onDigest: (@Sendable () async -> Void)?,
        nonceFreshFor: Duration = .seconds(60)
    ) {
        self.nonceFreshFor = nonceFreshFor
        self.username = username
        self.password = password
        self.policy = policy
        self.onDigest = onDigest
        basicHeader = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
        state = policy == .automatic ? .basic : .waiting
        basicUntried = policy == .automatic
    }

    public nonisolated var description: String { "PasswordAuthenticator(username: \(username), policy: \(policy.rawValue))" }

    /// The mirror shows the user name and policy only, so `dump` never prints the password.
    public nonisolated var customMirror: Mirror { Mirror(self, children: ["username": username, "policy": policy.rawValue]) }

    /// The scheme requests are signed with now.
    package var scheme: Scheme {
        switch state {
        case .waiting: .waiting
        case .basic: .basic
        case .digest: .digest
        }
    }

    public func authorize(_ request: inout TransportRequest) async throws {
        switch state {
        case .waiting:
            request.headers.remove(name: "Authorization")
        case .basic:
            basicUntried = false
            request.headers.replaceOrAdd(name: "Authorization", value: basicHeader)
        case .digest(let challenge, let count, let since):
            let next = count &+ 1
            state = .digest(challenge, count: next, since: since)
            let answer = DigestAnswer(
                username: username, password: password, method: request.method.rawValue,
                uri: DigestAnswer.requestTarget(of: request.url), nonceCount: next, cnonce: DigestAnswer.makeCnonce())
            request.headers.replaceOrAdd(name: "Authorization", value: answer.header(for: challenge))
        }
    }

    public func refresh(after response: TransportResponse?, for request: TransportRequest) async throws -> Bool {
        guard let response, response.status == 401 else { return false }
        // Each header as sent: a challenge's own commas must not split it (`canonicalForm` would).
        let values = response.headers["www-authenticate"]
        let challenges: [AuthChallenge]
        do {
            challenges = try AuthChallenge.parse(values)
        } catch {
            // A header that does not parse matters only when it may hold the Digest challenge.
            guard values.contains(where: { $0.range(of: "digest", options: .caseInsensitive) != nil }) else { return false }
            throw error
        }
        let (offered, unanswerable) = try DigestChallenge.strongest(of: challenges)
        let offersBasic = challenges.contains { $0.scheme == "basic" }
        let sent = request.headers.first(name: "authorization")

        guard let offered else {
            switch state {
            case .waiting where policy == .challengeFirst && offersBasic:
                state = .basic
                return true
            case .digest:
                // Never Basic again once the server has asked for Digest.
                if let unanswerable { throw Self.unsupported(unanswerable) }
                return false
            case .waiting, .basic:
                if let unanswerable, !offersBasic || policy == .digestOnly { throw Self.unsupported(unanswerable) }
                if policy == .digestOnly, offersBasic {
                    throw ProviderError(
                        .unauthorized,
                        "the server offers no sign-in but Basic, and Digest was required (auth=digest): the password was not sent",
                        httpStatus: 401)
                }
                return false
            }
        }

        switch state {
        case .waiting, .basic:
            await adopt(offered)
            return true
        case .digest(let current, _, _):
            if offered.stale || offered.realm != current.realm {
                await adopt(offered)
                return true
            }
            // Another request already took a new nonce, or this one went out before the switch.
            if !Self.carries(sent, nonce: current.nonce) { return true }
            // The current nonce was answered and refused without `stale`: the credentials are wrong.
            await adopt(offered)
            return false
        }
    }

    package func needsFreshChallenge() async -> Bool {
        switch state {
        case .waiting: true
        case .basic: basicUntried
        case .digest(_, _, let since): ContinuousClock.now - since >= nonceFreshFor
        }
    }

    package func takeChallenge(from response: TransportResponse) async {
        guard response.status == 401 else { return }
        let values = response.headers["www-authenticate"]
        guard let challenges = try? AuthChallenge.parse(values) else { return }
        if let offered = (try? DigestChallenge.strongest(of: challenges))?.best {
            // A Basic session is not switched by a probe of its own once Basic has gone out: it works.
            if case .basic = state, !basicUntried { return }
            await adopt(offered)
        } else if case .waiting = state, policy == .challengeFirst, challenges.contains(where: { $0.scheme == "basic" }) {
            state = .basic
        }
    }

    /// Signs the next requests with `challenge`, its nonce counted from 1; tells ``onDigest`` on the switch.
    private func adopt(_ challenge: DigestChallenge) async {
        let first = !isDigest
        state = .digest(challenge, count: 0, since: .now)
        if first, let onDigest { await onDigest() }
    }

    private var isDigest: Bool {
        if case .digest = state { return true }
        return false
    }

    /// Whether the `Authorization` value `sent` is a Digest answer with `nonce`.
    private static func carries(_ sent: String?, nonce: String) -> Bool {
        guard let sent, sent.count > 7, sent.prefix(7).lowercased() == "digest " else { return false }
        guard let challenge = try? AuthChallenge.parse([sent]).first else { return false }
        return challenge["nonce"] == nonce
    }

    private static func unsupported(_ reason: String) -> ProviderError {
        ProviderError(.unsupported, "the server asks for \(reason), which Strata does not speak", httpStatus: 401)
    }
}

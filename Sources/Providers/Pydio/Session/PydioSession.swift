import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderKit
import HTTPProviderKit

/// One signed-in conversation with a Pydio server: the cookie session, the secure token, the
/// lazy login (seed, hashed or plain password, captcha) and the replay of a call whose session
/// or token has gone.
///
/// Nothing is sent until the first call. Then `get_seed` and `login` run once (concurrent calls
/// wait for the same login), and every call carries `secure_token`. A call answered "not signed
/// in" signs in again (or, for a refused token while the cookie lives, fetches a new token) and
/// is replayed once; a second refusal is the caller's error, never a loop. A login refused for a
/// captcha throws `ProviderError.Code.captchaRequired` with the captcha image; answer it with
/// ``signIn(captcha:)``.
package actor PydioSession {
    /// The server's `index.php`.
    package nonisolated let endpoint: URL
    /// Sends the requests, through the session's cookie jar.
    package nonisolated let executor: RequestExecutor
    /// The session cookies.
    package nonisolated let cookies: CookieJar
    private let username: String
    private let password: String
    private var token: String?
    private let signingIn = SingleFlight<String>()
    private(set) var signIns = 0
    /// How a captcha is answered; see ``SignInInteraction``.
    private let interaction: SignInInteraction?
    /// The answer to the captcha of a resumed session, until a sign-in uses it.
    private var resumedAnswer: String?
    /// The server as ``SignInSession/server`` names it.
    private nonisolated let server: String

    /// Creates a session for `username` at the server whose base URL is `base` (with its trailing slash).
    ///
    /// - Parameters:
    ///   - base: the server's base URL, with its trailing slash.
    ///   - username: the user who signs in.
    ///   - password: the user's password.
    ///   - configuration: what requests are sent through (its transport, timeouts, retry
    ///     policy, logger and retry observer); its `signIn` says how a captcha is answered. When
    ///     that resumes a session of this server and user (`SignInInteraction.resuming`), its
    ///     cookies are this session's and the first sign-in answers that session's captcha with
    ///     `SignInInteraction.resumedAnswer`.
    package init(base: URL, username: String, password: String, configuration: ProviderConfiguration) {
        let signIn = configuration.signIn
        let jar = CookieJar()
        cookies = jar
        endpoint = base.appendingPathComponent("index.php")
        self.username = username
        self.password = password
        server = Redactor.redact(url: base)
        interaction = signIn
        if let signIn, let answer = signIn.resumedAnswer, let resumed = signIn.resumable(server: server, user: username) {
            jar.restore(resumed.cookies)
            resumedAnswer = answer
        }
        // Pydio signs in with a form of its own, never with HTTP authentication.
        var executor = RequestExecutor(
            configuration: configuration, authenticator: NoAuthenticator(),
            defaultHeaders: ["User-Agent": "Strata/1.0 Pydio-Native", "Ajxp-Force-Login": "true", "Accept": "*/*"])
        executor.transport = CookieJarTransport(executor.transport, jar: jar)
        self.executor = executor
    }

    /// How many times the session has signed in.
    package var signInCount: Int { signIns }

    /// Whether the session holds a secure token.
    package var isSignedIn: Bool { token != nil }

    // MARK: Calls

    /// Runs `action` with `parameters` and reads the answer with `chain`, signing in first when
    /// needed and once more when the server says the session or token has gone.
    package func call<Output: Sendable>(
        _ action: String, _ parameters: [(String, String)] = [], post: Bool = false, chain: ResponseRecognizerChain<Output>
    ) async throws -> Output {
        if token == nil { _ = try await signIn() }
        var replayed = false
        while true {
            let answer = try await send(action, parameters, post: post)
            switch try chain.recognize(answer) {
            case .value(let value): return value
            case .failure(let error): throw error
            case .signInRequired(let error):
                guard !replayed else {
                    // Signed in a moment ago and still refused: this is a permission, not a session.
                    throw ProviderError(.forbidden, "the server refuses \(action) for this user", request: answer.request, underlying: error.message)
                }
                replayed = true
                try await renew(after: error)
            }
        }
    }

    /// The request for `action`, with the token; GET parameters in the query, POST ones as a form body.
    package func request(_ action: String, _ parameters: [(String, String)], post: Bool) -> TransportRequest {
        var all = [("get_action", action)] + parameters
        if let token { all.append(("secure_token", token)) }
        let encoded = all.map { PercentEncoding.formEncode($0.0) + "=" + PercentEncoding.formEncode($0.1) }.joined(separator: "&")
        if post {
            var request = TransportRequest(
                method: .POST, url: endpoint, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: .bytes(ByteBuffer(string: encoded)), isIdempotent: false)
            // The action is in the body: name it in logs and errors (the body's other values may be secrets).
            request.label = "get_action=\(action)"
            return request
        }
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        components?.percentEncodedQuery = encoded
        return TransportRequest(method: .GET, url: components?.url ?? endpoint)
    }

    /// The request for `action`, signing in first when the session has no token yet.
    package func signedInRequest(_ action: String, _ parameters: [(String, String)], post: Bool = false) async throws -> TransportRequest {
        _ = try await currentToken()
        return request(action, parameters, post: post)
    }

    /// Sends `action` once and reads the whole answer.
    func send(_ action: String, _ parameters: [(String, String)], post: Bool) async throws -> RecognizableAnswer {
        var prepared = self.request(action, parameters, post: post)
        // The login form holds the password (or its hash); the seed and captcha belong to the login.
        prepared.carriesCredentials = Self.credentialActions.contains(action)
        return try await read(prepared)
    }

    /// The actions whose requests take part in a login, and so never go to another origin.
    static let credentialActions: Set<String> = ["login", "get_seed", "get_captcha"]

    /// Sends a prepared request once and reads the whole answer (HTTP errors are thrown as such).
    package func read(_ request: TransportRequest, limit: Int = 64 << 20) async throws -> RecognizableAnswer {
        let response = try await executor.execute(request)
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: limit)
        } catch {
            throw ProviderError.wrap(error, request: request.summary)
        }
        guard (200..<300).contains(response.status) else {
            throw ProviderError.http(status: response.status, request: request.summary, retryAfter: response.retryAfter)
        }
        return RecognizableAnswer(status: response.status, headers: response.headers, body: Data(body.readableBytesView), request: request.summary)
    }

    /// The token, signing in first when there is none.
    package func currentToken() async throws -> String {
        if let token { return token }
        return try await signIn()
    }

    /// Renews the session after the server refused it: a new token when only the token was
    /// refused and the cookie lives, else a new login.
    func renew(after error: ProviderError) async throws {
        if error.underlying == "token", let fresh = try? await fetchSecureToken() {
            token = fresh
            return
        }
        token = nil
        cookies.removeAll()
        _ = try await signIn()
    }

    /// `get_secure_token`: a new token for the session the cookie holds.
    func fetchSecureToken() async throws -> String {
        let answer = try await send("get_secure_token", [], post: false)
        let value = try PydioRecognizers.chain(PydioRecognizers.text).value(of: answer)
        guard value.count <= 128, !value.contains(" ") else { throw ProviderError(.invalidResponse, "not a secure token") }
        return value
    }

    // MARK: Signing in

    /// Signs in (once, for every caller waiting) and returns the secure token.
    @discardableResult
    package func signIn(captcha: String? = nil) async throws -> String {
        if !signingIn.isRunning, let captcha, captcha.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ProviderError(.invalidArgument, "an empty captcha answer is never sent: type the captcha's word")
        }
        return try await signingIn.run { [self] in
            let value = try await performSignIn(captcha: captcha)
            await signedIn(value)
            return value
        }
    }

    /// Keeps the token of a sign-in that just succeeded, before any waiter sees it.
    private func signedIn(_ value: String) {
        token = value
        signIns += 1
    }

    private func performSignIn(captcha: String?) async throws -> String {
        token = nil
        // Pydio counts an empty password as a failed sign-in, and three bring a captcha.
        guard !password.isEmpty else {
            throw ProviderError(
                .invalidArgument, "no password for \(username): an empty one is never sent (the server would count a failed sign-in)")
        }
        // The answer to send: the caller's, else a resumed session's (once), else asked when a captcha comes.
        var answer = captcha ?? resumedAnswer
        resumedAnswer = nil
        // Answers tried so far; an answer given before any question counts once it is refused.
        var attempt = 0
        var givenAnswer = answer != nil
        while true {
            let seedAnswer = try await send("get_seed", [], post: false)
            let seed: String
            switch try PydioRecognizers.chain(PydioRecognizers.seed).recognize(seedAnswer) {
            case .value(.seed(let value)): seed = value
            case .value(.captchaRequired(let value)):
                if answer == nil { answer = try await ask(attempt: &attempt) }
                seed = value
            case .failure(let error), .signInRequired(let error): throw error
            }
            var fields: [(String, String)] = [
                ("userid", username), ("password", Self.password(password, seed: seed)), ("login_seed", seed),
            ]
            if let answer { fields.append(("captcha_code", answer)) }
            let reply = try await send("login", fields, post: true)
            let result = try PydioRecognizers.chain(PydioRecognizers.login).value(of: reply)
            switch result.value {
            case 1:
                guard let token = result.secureToken, !token.isEmpty else {
                    throw ProviderError(.invalidResponse, "the login succeeded without a secure token", request: reply.request)
                }
                return token
            case -4:
                // A captcha is wanted, or the word sent was refused: a new image, a new answer.
                if givenAnswer {
                    attempt += 1
                    givenAnswer = false
                }
                answer = try await ask(attempt: &attempt)
            case -1, -5:
                throw ProviderError(.unauthorized, "the server refused the user name or password", request: reply.request)
            case -3:
                throw ProviderError(.forbidden, "the user has no workspace", request: reply.request)
            default:
                throw ProviderError(.unauthorized, "the login answered \(result.value)", request: reply.request)
            }
        }
    }

    /// Fetches a captcha image in this session and asks the interaction for its word; throws the
    /// `captchaRequired` error (with the image) when there is no one to ask, the answer is
    /// `nil` or empty, or the attempts are spent.
    private func ask(attempt: inout Int) async throws -> String {
        let (error, mediaType) = try await fetchCaptcha()
        attempt += 1
        guard let interaction, let answerer = interaction.answer, attempt <= interaction.maxAttempts else { throw error }
        let challenge = SignInChallenge(
            kind: .captcha, image: error.captchaImage, mediaType: mediaType, attempt: attempt,
            session: SignInSession(server: server, user: username, cookies: cookies.entries))
        guard let word = try await answerer(challenge)?.trimmingCharacters(in: .whitespacesAndNewlines), !word.isEmpty else {
            throw error
        }
        return word
    }

    /// The `captchaRequired` error, with the captcha image fetched in this session, and the
    /// image's media type (`nil` when the answer was no image).
    private func fetchCaptcha() async throws -> (error: ProviderError, mediaType: String?) {
        let answer = try await send("get_captcha", [], post: false)
        var error = ProviderError(
            .captchaRequired, "the server asks for a captcha: show the image, then sign in with its word", request: answer.request)
        guard answer.mediaType.hasPrefix("image/") else { return (error, nil) }
        error.captchaImage = answer.body
        return (error, answer.mediaType)
    }

    /// The password as `login` wants it: as it is when the seed is `-1`, else `md5(md5(password) + seed)`.
    package static func password(_ password: String, seed: String) -> String {
        guard seed != "-1" else { return password }
        let inner = Digester.hex(.md5, of: Array(password.utf8)) ?? ""
        return Digester.hex(.md5, of: Array((inner + seed).utf8)) ?? ""
    }

    /// Signs out (`logout`) and forgets the token and cookies.
    package func signOut() async throws {
        if token != nil {
            let answer = try await send("logout", [], post: true)
            _ = try? PydioRecognizers.chain(PydioRecognizers.login).value(of: answer)
        }
        token = nil
        cookies.removeAll()
    }
}

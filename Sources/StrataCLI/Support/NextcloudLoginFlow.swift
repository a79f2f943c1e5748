import Foundation
import HTTPProviderKit
import NIOCore
import NIOHTTP1
import ProviderAPI

/// Nextcloud's Login Flow v2, from the client's side, as Nextcloud's developer manual describes it
/// ("Login flow v2"): `POST index.php/login/v2` starts a flow and answers a login URL for the
/// user's browser and a poll token; the client then polls `POST <endpoint>` with `token=…` (404
/// until the user granted access, then the server, login name and a new app password, once) for
/// at most 20 minutes. The user's password never reaches the client.
///
/// The poll token and the app password are never printed, logged or put in an error.
struct NextcloudLoginFlow: Sendable {
    /// The server root (`https://cloud.example.com/` or `https://example.com/cloud/`), ending in `/`.
    let serverRoot: URL
    let transport: any HTTPTransport
    /// Sent as `User-Agent`: the server names the app password after it.
    let userAgent: String
    /// The time between two polls.
    var interval: Duration = .seconds(2)
    /// How long the flow is polled before giving up (the server's own limit is 20 minutes).
    var lifetime: Duration = .seconds(20 * 60)
    /// Told about a poll that failed and will be tried again.
    var notice: @Sendable (String) -> Void = { _ in }

    /// A flow started on the server.
    struct Started: Sendable, CustomStringConvertible {
        /// The page the user opens in a browser (printable: it holds the login token, which alone grants nothing).
        let loginURL: URL
        fileprivate let endpoint: URL
        fileprivate let pollToken: String

        var description: String { "login flow (\(loginURL.absoluteString))" }
    }

    /// Polls in a row that may fail (network, 5xx, 429) before the flow gives up.
    static let toleratedFailures = 5

    /// `POST index.php/login/v2`.
    ///
    /// - Throws: `unsupported` when the server has no Login Flow v2; `invalidResponse` when its
    ///   answer is not the documented one, or sends the poll elsewhere than the server.
    func start() async throws -> Started {
        let url = serverRoot.appendingPathComponent("index.php/login/v2")
        let response = try await transport.send(TransportRequest(method: .POST, url: url, headers: headers(), isIdempotent: false))
        let body = try await response.body.collect(upTo: 64 << 10)
        guard response.status == 200 else {
            if [404, 405].contains(response.status) {
                throw ProviderError(
                    .unsupported, "the server has no Nextcloud Login Flow v2 (HTTP \(response.status) from \(Redactor.redact(url: url)))",
                    httpStatus: response.status)
            }
            throw ProviderError(
                response.status >= 500 ? .server : .invalidResponse,
                "starting the login flow failed: HTTP \(response.status) from \(Redactor.redact(url: url))", httpStatus: response.status)
        }
        struct Answer: Decodable {
            struct Poll: Decodable {
                let token: String
                let endpoint: String
            }
            let poll: Poll
            let login: String
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(body.readableBytesView)),
            let login = URL(string: answer.login), let endpoint = URL(string: answer.poll.endpoint), !answer.poll.token.isEmpty
        else {
            throw ProviderError(.invalidResponse, "the server's answer to \(Redactor.redact(url: url)) is not a Login Flow v2 start")
        }
        guard Self.isWeb(login) else {
            throw ProviderError(.invalidResponse, "the server's login URL is not an http or https page")
        }
        guard Self.sameServer(endpoint, as: serverRoot) else {
            throw ProviderError(
                .invalidResponse,
                "the server asks to be polled at \(Redactor.redact(url: endpoint)), not on \(Redactor.redact(url: serverRoot)): refusing to send the poll token there (check the server's overwrite.cli.url and overwriteprotocol)")
        }
        return Started(loginURL: login, endpoint: endpoint, pollToken: answer.poll.token)
    }

    /// Polls until the user granted access (the app password), the flow expired (`unauthorized`),
    /// or the task is cancelled (`CancellationError`).
    func wait(for flow: Started) async throws -> Credentials {
        let clock = ContinuousClock()
        let deadline = clock.now + lifetime
        var failures = 0
        while true {
            try Task.checkCancellation()
            do {
                if let credentials = try await poll(flow) { return credentials }
                failures = 0
            } catch let failure as ProviderError where Self.isTransient(failure) && failures + 1 < Self.toleratedFailures {
                failures += 1
                notice("polling the login flow failed (\(failure.message ?? failure.code.description)); trying again")
            }
            let remaining = deadline - clock.now
            guard remaining > .zero else {
                throw ProviderError(
                    .unauthorized,
                    "access was not granted in the browser within \(Self.minutes(lifetime)): the login link has expired and nothing was saved; run strata login again")
            }
            try await Task.sleep(for: min(interval, remaining), clock: clock)
        }
    }

    /// One poll: the credentials once granted, `nil` while not (404).
    private func poll(_ flow: Started) async throws -> Credentials? {
        var headers = headers()
        headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let form = "token=" + PercentEncoding.encode(flow.pollToken, allowing: PercentEncoding.isUnreserved)
        let request = TransportRequest(
            method: .POST, url: flow.endpoint, headers: headers, body: .bytes(ByteBuffer(string: form)), isIdempotent: false,
            carriesCredentials: true)
        let response = try await transport.send(request)
        switch response.status {
        case 200:
            let body = try await response.body.collect(upTo: 64 << 10)
            struct Granted: Decodable {
                let loginName: String
                let appPassword: String
            }
            // Never quote this body: it holds the app password.
            guard let granted = try? JSONDecoder().decode(Granted.self, from: Data(body.readableBytesView)),
                !granted.loginName.isEmpty, !granted.appPassword.isEmpty
            else {
                throw ProviderError(.invalidResponse, "the server's poll answer has no login name and app password", httpStatus: 200)
            }
            return .appPassword(username: granted.loginName, password: granted.appPassword)
        case 404:
            await response.body.discard()
            return nil
        default:
            await response.body.discard()
            let code: ProviderError.Code = response.status >= 500 ? .server : response.status == 429 ? .rateLimited : .invalidResponse
            throw ProviderError(code, "HTTP \(response.status) from \(Redactor.redact(url: flow.endpoint))", httpStatus: response.status)
        }
    }

    private func headers() -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: userAgent)
        headers.add(name: "Accept", value: "application/json")
        return headers
    }

    /// What outcome a revocation had.
    enum Revocation: Equatable {
        /// The server revoked the app password.
        case revoked
        /// The server refused the app password already (revoked in its settings, or expired).
        case alreadyRefused
    }

    /// `DELETE ocs/v2.php/core/apppassword` with the app password itself, as Nextcloud's clients
    /// do at logout.
    ///
    /// - Throws: `forbidden` when the server says the login is not an app password; what the
    ///   transport throws; `server`/`invalidResponse` for another answer.
    static func revoke(
        _ credentials: Credentials, serverRoot: URL, transport: any HTTPTransport, userAgent: String
    ) async throws -> Revocation {
        let url = serverRoot.appendingPathComponent("ocs/v2.php/core/apppassword")
        var headers = HTTPHeaders()
        headers.add(name: "OCS-APIREQUEST", value: "true")
        headers.add(name: "Accept", value: "application/json")
        headers.add(name: "User-Agent", value: userAgent)
        let pair = "\(credentials.username ?? ""):\(credentials.password ?? "")"
        headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        let response = try await transport.send(TransportRequest(method: .DELETE, url: url, headers: headers))
        await response.body.discard()
        switch response.status {
        case 200: return .revoked
        case 401: return .alreadyRefused
        case 403:
            throw ProviderError(.forbidden, "the server says the saved login is not an app password it can revoke", httpStatus: 403)
        case 404, 405:
            throw ProviderError(
                .unsupported, "the server has no app password API (HTTP \(response.status) from \(Redactor.redact(url: url)))",
                httpStatus: response.status)
        default:
            throw ProviderError(
                response.status >= 500 ? .server : .invalidResponse, "HTTP \(response.status) from \(Redactor.redact(url: url))",
                httpStatus: response.status)
        }
    }

    /// The server root of an `http`/`https` URL of a Nextcloud: what comes before `remote.php` (as
    /// the adapter reads a URL), else the origin; ending in `/`.
    static func serverRoot(of url: URL) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        let segments = components.percentEncodedPath.split(separator: "/").map(String.init)
        let kept = segments.firstIndex(of: "remote.php").map { Array(segments[..<$0]) } ?? []
        components.percentEncodedPath = "/" + kept.map { $0 + "/" }.joined()
        return components.url
    }

    /// Whether `url` is an `http` or `https` URL with a host.
    static func isWeb(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !(url.host ?? "").isEmpty
    }

    /// Whether `url` is on the same host and port as `root`, and not plain HTTP where `root` is HTTPS.
    static func sameServer(_ url: URL, as root: URL) -> Bool {
        guard isWeb(url), let scheme = url.scheme?.lowercased(), let rootScheme = root.scheme?.lowercased() else { return false }
        if rootScheme == "https", scheme != "https" { return false }
        func port(_ url: URL, _ scheme: String) -> Int { url.port ?? (scheme == "https" ? 443 : 80) }
        return url.host?.lowercased() == root.host?.lowercased() && port(url, scheme) == port(root, rootScheme)
    }

    /// Whether a failed poll may be tried again: no connection, a silent or overloaded server.
    static func isTransient(_ failure: ProviderError) -> Bool {
        [.network, .server, .rateLimited].contains(failure.code)
    }

    /// `duration` in words, for messages.
    static func minutes(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        if seconds >= 120, seconds % 60 == 0 { return "\(seconds / 60) minutes" }
        return seconds == 1 ? "1 second" : "\(max(seconds, 0)) seconds"
    }
}

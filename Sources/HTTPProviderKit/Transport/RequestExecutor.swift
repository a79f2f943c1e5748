import Foundation
import Logging
import NIOHTTP1
import ProviderAPI

/// Sends requests through a transport with authentication, retries, redirects and logging.
///
/// Every provider sends its requests through one executor:
/// - the ``Authenticator`` prepares each request; a 401 lets it refresh its
///   credentials once, and the request is replayed once; a request whose body cannot be sent
///   again is first preceded by a bodiless `OPTIONS` when the authenticator needs a fresh
///   challenge (HTTP Digest before its first challenge, or with an old nonce);
/// - failures are retried as `RetryPolicy` says, within its total deadline; a refused
///   connection once at most, a server silent for the whole read timeout once at most, a host
///   that cannot be resolved never; ``onRetry`` hears of each retry;
/// - redirects are followed up to ``maxRedirects``, and credentials are
///   attached only while the target keeps the original scheme, host and port;
///   a redirect from `https` to `http` is refused, and so is one to another origin for a
///   request that ``TransportRequest/carriesCredentials`` or has a body to send again; a
///   redirect's body is read and dropped up to 64 KiB or 2 s, never to its end;
/// - each exchange is logged at `trace` (method, URL, status, duration; its headers too) with
///   secrets removed (`Redactor`), each retry and each failure at `debug` with its reason; the
///   ``logger`` goes with each request to the transport (``TransportRequest/logger``), which hands
///   it to AsyncHTTPClient.
///
/// An adapter makes its executor from its `ProviderConfiguration` with
/// ``init(configuration:authenticator:maxRedirects:defaultHeaders:)``, which takes every setting
/// the user gave there, and runs what must happen even after its caller was cancelled (deleting
/// a temporary upload) through ``cleanup(_:timeout:_:)``.
public struct RequestExecutor: Sendable {
    /// The transport that sends each exchange.
    public var transport: any HTTPTransport
    /// Prepares requests and answers challenges.
    public var authenticator: any Authenticator
    /// When to retry.
    public var retry: RetryPolicy
    /// The most redirects followed for one request.
    public var maxRedirects: Int
    /// Where requests are logged; by default nowhere.
    public var logger: Logger
    /// Headers added to every request unless it sets them itself.
    public var defaultHeaders: HTTPHeaders
    /// Told before each retry, with why and how long until it; the CLI prints it on stderr.
    public var onRetry: (@Sendable (RetryNotice) -> Void)?

    /// The most of a redirect's body read before its connection is dropped.
    static let redirectBodyLimit = 64 << 10
    /// The longest a redirect's body is read before its connection is dropped.
    static let redirectBodyTime: Duration = .seconds(2)

    /// Creates an executor.
    public init(
        transport: any HTTPTransport, authenticator: any Authenticator = NoAuthenticator(),
        retry: RetryPolicy = .standard, maxRedirects: Int = 8,
        logger: Logger = Logger(label: "strata.http", factory: { _ in SwiftLogNoOpLogHandler() }), defaultHeaders: HTTPHeaders = ["User-Agent": "Strata/1.0"],
        onRetry: (@Sendable (RetryNotice) -> Void)? = nil
    ) {
        self.onRetry = onRetry
        self.transport = transport
        self.authenticator = authenticator
        self.retry = retry
        self.maxRedirects = maxRedirects
        self.logger = logger
        self.defaultHeaders = defaultHeaders
    }

    /// Creates the executor an adapter sends its requests through, from the configuration the user
    /// gave it: its transport (`ProviderServices.transport`, behind the configuration's
    /// timeouts), retry policy, logger and retry observer.
    ///
    /// Prefer it to ``init(transport:authenticator:retry:maxRedirects:logger:defaultHeaders:onRetry:)``:
    /// a setting left out there is dropped without a word (a CLI's `--retries` or `-v` that does
    /// nothing, requests that never time out).
    ///
    /// ```swift
    /// let executor = RequestExecutor(configuration: configuration)  // credentials as Basic, Digest or Bearer
    /// let signedOut = RequestExecutor(configuration: configuration, authenticator: NoAuthenticator())
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: the adapter's configuration.
    ///   - authenticator: prepares each request; `nil`, the default, sends the configuration's
    ///     credentials as standard HTTP authentication (`ProviderConfiguration.httpAuthenticator()`:
    ///     an OAuth2 login renews itself and is saved back through `ProviderServices.credentialsRenewed`).
    ///     An adapter that signs in its own way passes its authenticator, or ``NoAuthenticator``.
    ///   - maxRedirects: the most redirects followed for one request.
    ///   - defaultHeaders: headers added to every request unless it sets them itself.
    public init(
        configuration: ProviderConfiguration, authenticator: (any Authenticator)? = nil, maxRedirects: Int = 8,
        defaultHeaders: HTTPHeaders = ["User-Agent": "Strata/1.0"]
    ) {
        self.init(
            transport: configuration.transport, authenticator: authenticator ?? configuration.httpAuthenticator(),
            retry: configuration.retry, maxRedirects: maxRedirects, logger: configuration.logger, defaultHeaders: defaultHeaders,
            onRetry: configuration.onRetry)
    }

    /// Sends `request` and returns the final response, whatever its status.
    ///
    /// Only transport failures throw; HTTP error statuses are returned for the
    /// caller to map, after the retries this executor allows.
    public func execute(_ request: TransportRequest) async throws -> TransportResponse {
        // Read from the URL only once a redirect has changed it (~0.8 % of a copy of small files).
        lazy var origin = Origin(request.url)
        var current = request
        for (name, value) in defaultHeaders where !current.headers.contains(name: name) {
            current.headers.add(name: name, value: value)
        }
        var attempt = 1
        var redirects = 0
        var reauthenticated = false
        var refusedRetries = 0
        var silentRetries = 0
        let replayable = request.body?.isReplayable ?? true
        let firstStarted = ContinuousClock.now
        if !replayable, let renewing = authenticator as? any FreshChallengeAuthenticator, await renewing.needsFreshChallenge() {
            await fetchChallenge(for: current, into: renewing)
        }

        while true {
            if Task.isCancelled { throw ProviderError(.cancelled, "cancelled", request: current.summary) }
            var outgoing = current
            outgoing.logger = logger
            let sameOrigin = outgoing.url == request.url || Origin(outgoing.url) == origin
            if sameOrigin {
                try await authenticator.authorize(&outgoing)
            } else {
                for name in Redactor.allSecretHeaders { outgoing.headers.remove(name: name) }
            }
            let started = ContinuousClock.now
            let response: TransportResponse
            do {
                response = try await transport.send(outgoing)
            } catch {
                let failure = ProviderError.wrap(error, request: outgoing.summary)
                if failure.code == .network, outgoing.isIdempotent, replayable, attempt < retry.maxAttempts {
                    let kind = NetworkFailure.kind(of: failure)
                    let delay = retry.delay(forRetry: attempt)
                    let allowed =
                        switch kind {
                        case .unresolvedHost, .tls: false
                        case .refused: refusedRetries < 1
                        case .silent: silentRetries < 1
                        case .other: true
                        }
                    if allowed, retry.allowsRetry(after: ContinuousClock.now - firstStarted, delay: delay) {
                        if kind == .refused { refusedRetries += 1 }
                        if kind == .silent { silentRetries += 1 }
                        logger.debug(
                            "retrying after a network failure",
                            metadata: [
                                "request": "\(outgoing.summary)", "attempt": "\(attempt)", "delay": "\(delay)", "error": "\(failure)",
                            ])
                        try await retryAfter(delay, request: outgoing, attempt: attempt, reason: failure.message ?? "\(failure.code)")
                        attempt += 1
                        continue
                    }
                }
                logger.debug(
                    "request failed, not retried", metadata: ["request": "\(outgoing.summary)", "attempt": "\(attempt)", "error": "\(failure)"])
                throw failure
            }
            if logger.logLevel <= .trace {
                logger.trace(
                    "http",
                    metadata: [
                        "method": "\(outgoing.method.rawValue)", "url": "\(Redactor.redact(url: outgoing.url))",
                        "status": "\(response.status)", "duration": "\(ContinuousClock.now - started)",
                    ])
                logger.trace("request headers", metadata: ["headers": "\(Redactor.redact(headers: outgoing.headers))"])
            }

            // Authentication challenge: refresh once, replay once.
            if response.status == 401, sameOrigin, !reauthenticated, replayable {
                if try await authenticator.refresh(after: response, for: outgoing) {
                    await response.body.discard(upTo: Self.redirectBodyLimit, within: Self.redirectBodyTime)
                    reauthenticated = true
                    continue
                }
            }

            // Redirects.
            if [301, 302, 303, 307, 308].contains(response.status), let location = response.headers.first(name: "location") {
                // The body of a redirect is nobody's: read a little so the connection may be reused, never all.
                await response.body.discard(upTo: Self.redirectBodyLimit, within: Self.redirectBodyTime)
                guard redirects < maxRedirects else {
                    throw ProviderError(.server, "too many redirects", httpStatus: response.status, request: outgoing.summary)
                }
                guard let target = Self.redirectTarget(location, from: outgoing.url), let scheme = target.scheme?.lowercased() else {
                    throw ProviderError(.invalidResponse, "redirect to an invalid location", httpStatus: response.status, request: outgoing.summary)
                }
                if outgoing.url.scheme?.lowercased() == "https", scheme == "http" {
                    throw ProviderError(.forbidden, "refused a redirect from https to http", httpStatus: response.status, request: outgoing.summary)
                }
                let method = current.method.rawValue
                let dropsBody = response.status == 303 && method != "HEAD" || (response.status == 301 || response.status == 302) && method == "POST"
                if Origin(target) != origin {
                    if current.carriesCredentials {
                        throw ProviderError(
                            .forbidden, "refused to send credentials to another origin: \(Redactor.redact(url: target))",
                            httpStatus: response.status, request: outgoing.summary)
                    }
                    if current.body != nil, !dropsBody {
                        throw ProviderError(
                            .forbidden, "refused to send the request body to another origin: \(Redactor.redact(url: target))",
                            httpStatus: response.status, request: outgoing.summary)
                    }
                }
                redirects += 1
                current.url = target
                if dropsBody {
                    current.method = .GET
                    current.body = nil
                    current.headers.remove(name: "content-length")
                    current.headers.remove(name: "content-type")
                } else if current.body != nil, !replayable {
                    throw ProviderError(.server, "cannot replay a one-shot body to follow a redirect", httpStatus: response.status, request: outgoing.summary)
                }
                continue
            }

            // Throttling and temporary failures.
            let throttled = response.status == 429 || response.status == 503
            let gateway = response.status == 502 || response.status == 504
            if (throttled || (gateway && outgoing.isIdempotent)) && replayable && attempt < retry.maxAttempts {
                let delay = response.retryAfter ?? retry.delay(forRetry: attempt)
                if delay <= retry.maxRetryAfter, retry.allowsRetry(after: ContinuousClock.now - firstStarted, delay: delay) {
                    await response.body.discard(upTo: Self.redirectBodyLimit, within: Self.redirectBodyTime)
                    logger.debug(
                        "retrying after status",
                        metadata: [
                            "request": "\(outgoing.summary)", "status": "\(response.status)", "attempt": "\(attempt)",
                            "delay": "\(delay)",
                        ])
                    try await retryAfter(delay, request: outgoing, attempt: attempt, reason: "HTTP \(response.status)")
                    attempt += 1
                    continue
                }
            }
            return response
        }
    }

    /// The absolute URL a `Location` names, when it is an `http`/`https` URL with a host and a
    /// port in 1…65535; `nil` otherwise.
    static func redirectTarget(_ location: String, from base: URL) -> URL? {
        guard let target = URL(string: location.trimmingCharacters(in: .whitespaces), relativeTo: base)?.absoluteURL,
            URLChecks.isValidHTTPURL(target)
        else { return nil }
        return target
    }

    /// Sends a bodiless `OPTIONS` without credentials to `request`'s URL and hands its answer to
    /// `authenticator`, so that a request that cannot be replayed does not meet a challenge. A
    /// failure here is left for the request itself to meet.
    private func fetchChallenge(for request: TransportRequest, into authenticator: any FreshChallengeAuthenticator) async {
        var probe = TransportRequest(method: .OPTIONS, url: request.url, headers: [:], timeouts: request.timeouts)
        for (name, value) in defaultHeaders { probe.headers.add(name: name, value: value) }
        probe.logger = logger
        guard let response = try? await transport.send(probe) else { return }
        await authenticator.takeChallenge(from: response)
        await response.body.discard(upTo: Self.redirectBodyLimit, within: Self.redirectBodyTime)
    }

    /// Tells ``onRetry``, then waits `delay`.
    private func retryAfter(_ delay: Duration, request: TransportRequest, attempt: Int, reason: String) async throws {
        onRetry?(
            RetryNotice(
                request: request.summary, attempt: attempt + 1, maxAttempts: retry.maxAttempts, reason: Redactor.redact(reason),
                delay: delay))
        try await sleep(delay, request: request)
    }

    private func sleep(_ delay: Duration, request: TransportRequest) async throws {
        do { try await Task.sleep(for: delay) } catch { throw ProviderError(.cancelled, "cancelled", request: request.summary) }
    }
}

/// Scheme, host and port of a URL, compared to decide whether credentials may be sent.
struct Origin: Equatable {
    let scheme: String
    let host: String
    let port: Int

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? (scheme == "https" ? 443 : 80)
    }
}

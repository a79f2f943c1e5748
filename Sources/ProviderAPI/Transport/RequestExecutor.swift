import Foundation
import Logging
import NIOHTTP1

/// Sends requests through a transport with authentication, retries, redirects and logging.
///
/// Every provider sends its requests through one executor:
/// - the ``Authenticator`` prepares each request; a 401 lets it refresh its
///   credentials once, and the request is replayed once;
/// - failures are retried as ``RetryPolicy`` says;
/// - redirects are followed up to ``maxRedirects``, and credentials are
///   attached only while the target keeps the original scheme, host and port;
///   a redirect from `https` to `http` is refused;
/// - each exchange is logged at `debug` with secrets removed (``Redactor``).
public struct RequestExecutor: Sendable {
    /// The transport that sends each exchange.
    public var transport: any HTTPTransport
    /// Prepares requests and answers challenges.
    public var authenticator: any Authenticator
    /// When to retry.
    public var retry: RetryPolicy
    /// The most redirects followed for one request.
    public var maxRedirects: Int
    /// Where requests are logged.
    public var logger: Logger
    /// Headers added to every request unless it sets them itself.
    public var defaultHeaders: HTTPHeaders

    /// Creates an executor.
    public init(
        transport: any HTTPTransport, authenticator: any Authenticator = NoAuthenticator(),
        retry: RetryPolicy = .standard, maxRedirects: Int = 8,
        logger: Logger = Logger(label: "strata.http"), defaultHeaders: HTTPHeaders = ["User-Agent": "Strata/1.0"]
    ) {
        self.transport = transport
        self.authenticator = authenticator
        self.retry = retry
        self.maxRedirects = maxRedirects
        self.logger = logger
        self.defaultHeaders = defaultHeaders
    }

    /// Sends `request` and returns the final response, whatever its status.
    ///
    /// Only transport failures throw; HTTP error statuses are returned for the
    /// caller to map, after the retries this executor allows.
    public func execute(_ request: HTTPRequest) async throws -> HTTPResponse {
        let origin = Origin(request.url)
        var current = request
        for (name, value) in defaultHeaders where !current.headers.contains(name: name) {
            current.headers.add(name: name, value: value)
        }
        var attempt = 1
        var redirects = 0
        var reauthenticated = false
        let replayable = request.body?.isReplayable ?? true

        while true {
            if Task.isCancelled { throw ProviderError(.cancelled, "cancelled", request: current.summary) }
            var outgoing = current
            let sameOrigin = Origin(outgoing.url) == origin
            if sameOrigin {
                try await authenticator.authorize(&outgoing)
            } else {
                for name in Redactor.secretHeaders { outgoing.headers.remove(name: name) }
            }
            let started = ContinuousClock.now
            let response: HTTPResponse
            do {
                response = try await transport.send(outgoing)
            } catch {
                let failure = ProviderError.wrap(error, request: outgoing.summary)
                if failure.code == .network, outgoing.isIdempotent, replayable, attempt < retry.maxAttempts {
                    let delay = retry.delay(forRetry: attempt)
                    logger.notice(
                        "retrying after failure",
                        metadata: ["request": "\(outgoing.summary)", "attempt": "\(attempt)", "error": "\(failure)"])
                    try await sleep(delay, request: outgoing)
                    attempt += 1
                    continue
                }
                logger.debug("request failed", metadata: ["request": "\(outgoing.summary)", "error": "\(failure)"])
                throw failure
            }
            logger.debug(
                "http",
                metadata: [
                    "request": "\(outgoing.summary)", "status": "\(response.status)",
                    "elapsed": "\(ContinuousClock.now - started)",
                ])
            if logger.logLevel <= .trace {
                logger.trace("request headers", metadata: ["headers": "\(Redactor.redact(headers: outgoing.headers))"])
            }

            // Authentication challenge: refresh once, replay once.
            if response.status == 401, sameOrigin, !reauthenticated, replayable {
                if try await authenticator.refresh(after: response, for: outgoing) {
                    await response.body.discard()
                    reauthenticated = true
                    continue
                }
            }

            // Redirects.
            if [301, 302, 303, 307, 308].contains(response.status), let location = response.headers.first(name: "location") {
                guard redirects < maxRedirects else {
                    await response.body.discard()
                    throw ProviderError(.server, "too many redirects", httpStatus: response.status, request: outgoing.summary)
                }
                guard let target = URL(string: location, relativeTo: outgoing.url)?.absoluteURL,
                    let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
                else {
                    await response.body.discard()
                    throw ProviderError(.invalidResponse, "redirect to an invalid location", httpStatus: response.status, request: outgoing.summary)
                }
                if outgoing.url.scheme?.lowercased() == "https", scheme == "http" {
                    await response.body.discard()
                    throw ProviderError(.forbidden, "refused a redirect from https to http", httpStatus: response.status, request: outgoing.summary)
                }
                await response.body.discard()
                redirects += 1
                current.url = target
                let method = current.method.rawValue
                if response.status == 303 && method != "HEAD" || (response.status == 301 || response.status == 302) && method == "POST" {
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
                if delay <= retry.maxRetryAfter {
                    await response.body.discard()
                    logger.notice(
                        "retrying after status",
                        metadata: ["request": "\(outgoing.summary)", "status": "\(response.status)", "attempt": "\(attempt)"])
                    try await sleep(delay, request: outgoing)
                    attempt += 1
                    continue
                }
            }
            return response
        }
    }

    private func sleep(_ delay: Duration, request: HTTPRequest) async throws {
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

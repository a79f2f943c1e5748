import Foundation

/// The one error type every Strata provider throws.
///
/// Adapters map their wire errors (HTTP statuses, XML or JSON error bodies,
/// transport failures) onto a ``Code``; callers switch on ``code`` and never
/// parse message text. Raw transport errors never leak out of a provider.
///
/// ```swift
/// do { _ = try await provider.item(at: path) }
/// catch let error as ProviderError where error.code == .notFound { … }
/// ```
public struct ProviderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in terms a caller can act on.
    ///
    /// A struct with static members rather than an enum, so new codes can be
    /// added without breaking a caller's `switch`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The item does not exist.
        public static let notFound = Code("notFound")
        /// The target already exists and the call asked not to replace it.
        public static let alreadyExists = Code("alreadyExists")
        /// The credentials are missing, wrong or expired.
        public static let unauthorized = Code("unauthorized")
        /// The server demands a captcha answer before another login; see ``ProviderError/captchaImage``.
        public static let captchaRequired = Code("captchaRequired")
        /// The credentials are valid but do not allow this call.
        public static let forbidden = Code("forbidden")
        /// The call conflicts with the server's state (missing parent, stale change token, locked item).
        public static let conflict = Code("conflict")
        /// A precondition such as `If-Match` failed: the item changed since it was read.
        public static let preconditionFailed = Code("preconditionFailed")
        /// The account or server is out of space.
        public static let quotaExceeded = Code("quotaExceeded")
        /// The server asks the client to slow down; see ``ProviderError/retryAfter``.
        public static let rateLimited = Code("rateLimited")
        /// The provider does not support this call; no request was sent.
        public static let unsupported = Code("unsupported")
        /// The server's answer could not be understood (malformed XML or JSON, wrong shape, hostile content).
        public static let invalidResponse = Code("invalidResponse")
        /// The argument is not acceptable (an invalid path or name, a bad range).
        public static let invalidArgument = Code("invalidArgument")
        /// The network failed: connection refused or reset, timeout, TLS failure.
        public static let network = Code("network")
        /// Local storage failed: an I/O error, a read-only file system, too many open files.
        ///
        /// Not ``network``: retrying the same call over the same disk seldom helps, and the
        /// cause is on this machine, not on a server. A full disk is ``quotaExceeded``. See
        /// ``ProviderError/posix(_:action:path:)`` for how `errno` values map onto codes.
        public static let io = Code("io")
        /// The server failed with an unexpected status; see ``ProviderError/httpStatus``.
        public static let server = Code("server")
        /// The task was cancelled.
        public static let cancelled = Code("cancelled")
        /// Downloaded content did not match the digest the server declared.
        public static let integrity = Code("integrity")
        /// An error Strata does not recognise: neither a `ProviderError` nor one that
        /// ``ProviderError/wrap(_:fallback:request:)`` knows how to classify (a bug, or an error of a
        /// component that should have mapped its own); ``ProviderError/underlying`` describes it.
        ///
        /// Never retried: not by the HTTP kit's request executor, not by a transfer's file
        /// retries, not taken for an unreachable server by a cache's journal. Sending the same call
        /// again would meet the same fault, and retrying it as if the network had failed hides it.
        public static let unknown = Code("unknown")

        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// The provider's or server's own message, when it gave one.
    public var message: String?
    /// The HTTP status of the failing response, when there was one.
    public var httpStatus: Int?
    /// The request that failed, as `METHOD path` with secrets removed.
    public var request: String?
    /// How long the server asked the client to wait (`Retry-After`), for ``Code/rateLimited`` and 503s.
    public var retryAfter: Duration?
    /// A description of the underlying cause, with secrets removed.
    public var underlying: String?
    /// The captcha image the server wants answered, for ``Code/captchaRequired``.
    public var captchaImage: Data?

    /// Creates an error.
    public init(
        _ code: Code,
        _ message: String? = nil,
        httpStatus: Int? = nil,
        request: String? = nil,
        retryAfter: Duration? = nil,
        underlying: String? = nil,
        captchaImage: Data? = nil
    ) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.request = request
        self.retryAfter = retryAfter
        self.underlying = underlying
        self.captchaImage = captchaImage
    }

    public var description: String {
        var parts = ["\(code)"]
        if let httpStatus { parts.append("HTTP \(httpStatus)") }
        if let request { parts.append(request) }
        var text = parts.joined(separator: " ")
        if let message, !message.isEmpty { text += ": \(message)" }
        if let underlying, !underlying.isEmpty { text += " (\(underlying))" }
        return text
    }

    /// Wraps any error as a `ProviderError`: a `ProviderError` is returned as is,
    /// cancellation becomes ``Code/cancelled``, a file-system error (`POSIXError`, a `CocoaError`
    /// file error, an `NSError` in the POSIX domain) is mapped as ``posix(_:action:path:)`` maps its
    /// `errno`, a NIO channel error or an `IOError` of a socket (a reset, a refused or timed-out
    /// connection) is ``Code/network`` and NIO's other `IOError`s are mapped by their `errno`;
    /// anything else is ``Code/unknown`` unless `fallback` says otherwise.
    ///
    /// Transports map their own failures (`AsyncHTTPClientTransport` reports every failure of an
    /// exchange as ``Code/network`` or more precisely): what reaches the fallback is an error no
    /// layer recognised, and it is not taken for a network failure, which would be retried.
    public static func wrap(_ error: any Error, fallback: Code = .unknown, request: String? = nil) -> ProviderError {
        if var providerError = error as? ProviderError {
            if providerError.request == nil { providerError.request = request }
            return providerError
        }
        if error is CancellationError { return ProviderError(.cancelled, "cancelled", request: request) }
        if var fileError = fileSystemError(error) ?? nioError(error) {
            fileError.request = request
            return fileError
        }
        if let urlError = error as? URLError {
            // Foundation's URL loading (a host app's own requests, a custom transport on URLSession).
            let code: Code = urlError.code == .cancelled ? .cancelled : .network
            return ProviderError(code, nil, request: request, underlying: Redactor.redact(String(describing: urlError)))
        }
        return ProviderError(fallback, nil, request: request, underlying: Redactor.redact(String(describing: error)))
    }

    /// The error for a call the provider does not support.
    package static func unsupported(_ what: String) -> ProviderError {
        ProviderError(.unsupported, "\(what) is not supported by this provider")
    }
}

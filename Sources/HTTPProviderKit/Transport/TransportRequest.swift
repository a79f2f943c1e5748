import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ProviderAPI

/// The body of an ``TransportRequest``.
public enum HTTPRequestBody: Sendable {
    /// Bytes in memory.
    case bytes(ByteBuffer)
    /// A streamed source; sent with its length when known, chunked otherwise.
    case source(any UploadSource)

    /// Whether the body can be sent again after a retry or redirect.
    package var isReplayable: Bool {
        switch self {
        case .bytes: return true
        case .source(let source): return source.isReplayable
        }
    }

    /// The length, when known.
    package var length: Int64? {
        switch self {
        case .bytes(let buffer): return Int64(buffer.readableBytes)
        case .source(let source): return source.length
        }
    }
}

/// One HTTP request, as providers build it and transports send it.
public struct TransportRequest: Sendable {
    /// The method (`GET`, `PROPFIND`, …).
    public var method: HTTPMethod
    /// The absolute URL.
    public var url: URL
    /// The headers.
    public var headers: HTTPHeaders
    /// The body, if any.
    public var body: HTTPRequestBody?
    /// The longest the whole request may take, on top of the transport's connect and read timeouts.
    public var deadline: Duration?
    /// The connect and read timeouts and minimum speed of this request; those left `nil` are the
    /// transport's own. A provider's `ProviderConfiguration.timeouts` fill them in.
    public var timeouts: Timeouts
    /// Whether the request may be sent again after a failure; defaults to the method's idempotency.
    public var isIdempotent: Bool
    /// Receives progress of the request body.
    public var uploadProgress: ProgressHandler?
    /// Whether the body holds a secret (a login form, a token exchange).
    ///
    /// ``RequestExecutor`` never sends such a request to another origin: a redirect there fails
    /// with `ProviderError.Code.forbidden`.
    public var carriesCredentials: Bool
    /// The logger the transport hands its HTTP client for this exchange (AsyncHTTPClient logs its
    /// connection pool and exchange there); `nil`, the default, logs nothing. ``RequestExecutor``
    /// sets its own logger on each request it sends.
    public var logger: Logger?

    /// Creates a request.
    public init(
        method: HTTPMethod, url: URL, headers: HTTPHeaders = [:], body: HTTPRequestBody? = nil,
        deadline: Duration? = nil, isIdempotent: Bool? = nil, uploadProgress: ProgressHandler? = nil,
        carriesCredentials: Bool = false, timeouts: Timeouts = Timeouts()
    ) {
        self.timeouts = timeouts
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.deadline = deadline
        self.isIdempotent = isIdempotent ?? TransportRequest.idempotentMethods.contains(method.rawValue)
        self.uploadProgress = uploadProgress
        self.carriesCredentials = carriesCredentials
    }

    static let idempotentMethods: Set<String> = [
        "GET", "HEAD", "OPTIONS", "PUT", "DELETE", "PROPFIND", "PROPPATCH", "REPORT", "SEARCH", "TRACE",
    ]

    /// What the request does when neither method nor URL tells (the `get_action` of a Pydio POST,
    /// whose parameters are in the body): shown after the URL in `summary`. Never a secret.
    public var label: String?

    /// `METHOD path` with the query's secrets masked, then the ``label`` in brackets, for errors and logs.
    package var summary: String { RequestSummary(self).text }
}

/// What a request's `TransportRequest.summary` says, made only when asked: a transport keeps
/// one of these per request for the messages of errors that may never happen, instead of
/// building (and redacting) the text for every request.
struct RequestSummary: Sendable {
    let method: HTTPMethod
    let url: URL
    let label: String?

    init(_ request: TransportRequest) {
        method = request.method
        url = request.url
        label = request.label
    }

    /// `METHOD path` with the query's secrets masked, then the label in brackets.
    var text: String {
        let line = "\(method.rawValue) \(Redactor.redact(url: url, includeHost: false))"
        return label.map { "\(line) [\(Redactor.redact($0))]" } ?? line
    }
}

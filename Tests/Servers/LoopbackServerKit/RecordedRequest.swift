import Foundation

/// A request as a loopback test server received it, kept for test assertions (servers that
/// redact `Authorization` keep only its scheme, `Basic <redacted>`).
public struct RecordedRequest: Sendable, Equatable {
    /// The HTTP method (`GET`, `POST`, …).
    public var method: String
    /// The path, percent-encoded exactly as received, without the query.
    public var path: String
    /// The raw query string (without `?`), `nil` when absent.
    public var query: String?
    /// Header name/value pairs in the order received.
    public var headers: [(name: String, value: String)]

    /// Creates a record.
    public init(method: String, path: String, query: String?, headers: [(name: String, value: String)]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// The first value of a header (case-insensitive name).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// `true` when the request carried `Authorization` or `X-Authentication-Token` (Nuxeo's token header).
    public var carriedCredentials: Bool {
        header("Authorization") != nil || header("X-Authentication-Token") != nil
    }

    /// Two records are equal when method, path, query and every header pair match in order.
    public static func == (lhs: RecordedRequest, rhs: RecordedRequest) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.query == rhs.query
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }
}

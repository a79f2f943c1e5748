import Foundation

/// A request as the ``HostileServer`` received it, kept so a test can assert what reached the
/// server (for example that another origin never got the login form or the upload body).
public struct HostileRequest: Sendable, Hashable {
    /// The order of arrival, from 0.
    public var index: Int
    /// The HTTP method (`GET`, `PROPFIND`, …).
    public var method: String
    /// The path, percent-encoded as received, without the query.
    public var path: String
    /// The raw query string (without `?`), `nil` when absent.
    public var query: String?
    /// Header name/value pairs in the order received.
    public var headers: [Header]
    /// How many body bytes arrived.
    public var bodySize: Int
    /// The body itself, up to the first 64 KiB (so a test can look for a password in a form).
    public var bodyPrefix: [UInt8]
    /// Whether the connection closed before the request's body ended (seen only by scenarios
    /// with ``HostileScenario/seesCutRequests``; its answer reaches no one).
    public var cut = false

    /// One header line.
    public struct Header: Sendable, Hashable {
        /// The name as sent.
        public var name: String
        /// The value as sent.
        public var value: String
    }

    /// The first value of a header (case-insensitive name).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The query's form fields, decoded (`+` as a space, percent escapes once).
    public var queryItems: [String: String] {
        Self.formFields(query ?? "")
    }

    /// The body's form fields when it is `application/x-www-form-urlencoded`, decoded.
    public var formItems: [String: String] {
        Self.formFields(String(decoding: bodyPrefix, as: UTF8.self))
    }

    /// The body prefix as text (lossy UTF-8).
    public var bodyText: String { String(decoding: bodyPrefix, as: UTF8.self) }

    static func formFields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }
}

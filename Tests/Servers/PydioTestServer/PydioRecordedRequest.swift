import Foundation

/// A request as the server received it, kept for test assertions.
public struct PydioRecordedRequest: Sendable, Equatable {
    /// The HTTP method (`GET`, `POST`, `PUT`, …).
    public var method: String
    /// The path, percent-encoded exactly as received, without the query.
    public var path: String
    /// The raw query string (without `?`), `nil` when absent.
    public var query: String?
    /// Body fields, decoded: urlencoded pairs, or the non-file parts of a
    /// multipart body (a file part appears with its file name as value).
    public var form: [(name: String, value: String)]
    /// Header name/value pairs in the order received.
    public var headers: [(name: String, value: String)]

    /// Creates a record.
    public init(
        method: String, path: String, query: String?,
        form: [(name: String, value: String)], headers: [(name: String, value: String)]
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.form = form
        self.headers = headers
    }

    /// The first value of a header (case-insensitive name).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// A parameter as the server sees it: body field first, then query (POST wins).
    public func parameter(_ name: String) -> String? {
        if let value = form.last(where: { $0.name == name })?.value { return value }
        return FormCodec.parse(query ?? "").last { $0.name == name }?.value
    }

    /// The action (`get_action`, else `action`), `nil` when absent.
    public var action: String? {
        parameter("get_action") ?? parameter("action")
    }

    /// Two records are equal when every field matches, pairs in order.
    public static func == (lhs: PydioRecordedRequest, rhs: PydioRecordedRequest) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.query == rhs.query
            && lhs.form.elementsEqual(rhs.form) { $0.name == $1.name && $0.value == $1.value }
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }
}

import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI

/// An HTTP request described as data: the Swift form of Nemo Connect's property-list web services.
///
/// A template names a method, a path relative to a base URL, query parameters, headers, a body,
/// the statuses that mean success and the ``TemplateDecoderRegistry`` decoder that reads the answer.
/// Templates load from JSON or property lists (``RequestTemplateCatalog``) and run through a
/// ``RequestTemplateExecutor``, so authentication, retries and redirects apply as for any request.
///
/// ```json
/// {
///   "name": "children", "method": "GET",
///   "path": "/api/v1/id/{uid}/@children?currentPageIndex={page?}",
///   "query": [["pageSize", "{pageSize?}"]],
///   "headers": {"properties": "{schemas?}"},
///   "expectedStatuses": [200], "decoder": "json"
/// }
/// ```
///
/// ## Placeholders
/// - `{name}` and `{0}` take a named or positional argument; `%0`, `%1` are Nemo Connect's positional form.
/// - Property access reads into objects and arrays: `%1[uid]`, `{doc[uid]}`, `{doc[file:content][name]}`, `{list[0]}`.
/// - `{name?}` is optional: empty when missing, and a query parameter, header, form field or JSON member
///   whose placeholders are all optional and missing is left out. A missing required argument, or `null`,
///   is `ProviderError.Code.invalidArgument`.
/// - `{path*}` in the path keeps the value's `/` and encodes each segment; without `*` a `/` becomes `%2F`.
/// - `{{`, `}}` and `%%` write a literal `{`, `}` and `%`.
///
/// ## Encoding by position
/// - Path: literal text is kept (only characters invalid in a URL path are encoded); a value is encoded as
///   one segment (`/ ? # % & = + ;` and non-ASCII are percent-encoded). Empty required values and `.`/`..`
///   segments are refused, so a value cannot reach another endpoint.
/// - Query, including a query written inline after `?` in ``path``: names and values are raw text,
///   form-encoded keeping only unreserved characters, so `+` is `%2B` and space `%20`. A value that is
///   exactly one placeholder holding an array repeats the parameter once per element.
/// - Headers: substituted as they are; CR, LF and NUL are refused.
/// - Bodies: see ``TemplateBody``.
///
/// Numbers and booleans are written in their JSON form, arrays as comma-separated elements outside a
/// JSON body; an object outside a JSON body is refused.
public struct RequestTemplate: Codable, Sendable, Hashable {
    /// The name a ``RequestTemplateCatalog`` finds the template by.
    public var name: String
    /// The HTTP method, such as `GET` or `PROPFIND`.
    public var method: String
    /// The path template, appended to the base URL's path; may carry an inline query after `?`.
    public var path: String
    /// Query parameters, after any inline ones, in order.
    public var query: [TemplateField]
    /// Headers; the names are literal.
    public var headers: [TemplateField]
    /// The body, if any.
    public var body: TemplateBody?
    /// The `Content-Type` of the body, when not the body kind's default or set in ``headers``.
    public var contentType: String?
    /// The statuses that mean success; any other is mapped with `ProviderError.http(_:request:message:)`.
    public var expectedStatuses: [Int]
    /// The name of the decoder in a ``TemplateDecoderRegistry`` that reads a successful answer.
    public var decoder: String
    /// Whether the request may be sent again after a failure; `nil` means the method decides.
    public var isIdempotent: Bool?
    /// The longest the whole request may take, in seconds (``TransportRequest/deadline``); `nil` for no limit.
    public var timeout: Double?
    /// Whether the request or its answer is a secret (a token exchange): it is never sent to
    /// another origin (``TransportRequest/carriesCredentials``). JSON key `carriesCredentials`, default `false`.
    public var carriesCredentials: Bool = false

    /// Creates a template.
    public init(
        name: String, method: String = "GET", path: String, query: [TemplateField] = [], headers: [TemplateField] = [],
        body: TemplateBody? = nil, contentType: String? = nil, expectedStatuses: [Int] = [200], decoder: String = "json",
        isIdempotent: Bool? = nil, timeout: Double? = nil
    ) {
        self.timeout = timeout
        self.name = name
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.contentType = contentType
        self.expectedStatuses = expectedStatuses
        self.decoder = decoder
        self.isIdempotent = isIdempotent
    }

    private enum CodingKeys: String, CodingKey {
        case name, method, path, query, headers, body, contentType, expectedStatuses, decoder, isIdempotent, timeout
        case carriesCredentials
    }

    /// Decodes a template; only `path` is required. `method` defaults to `GET`, `expectedStatuses` to `[200]`,
    /// `decoder` to `json`, and `name` to empty (a catalog written as an object names templates by their keys).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        method = try container.decodeIfPresent(String.self, forKey: .method) ?? "GET"
        path = try container.decode(String.self, forKey: .path)
        query = try TemplateField.decodeList(from: container, forKey: .query)
        headers = try TemplateField.decodeList(from: container, forKey: .headers)
        body = try container.decodeIfPresent(TemplateBody.self, forKey: .body)
        contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
        expectedStatuses = try container.decodeIfPresent([Int].self, forKey: .expectedStatuses) ?? [200]
        self.decoder = try container.decodeIfPresent(String.self, forKey: .decoder) ?? "json"
        isIdempotent = try container.decodeIfPresent(Bool.self, forKey: .isIdempotent)
        timeout = try container.decodeIfPresent(Double.self, forKey: .timeout)
        carriesCredentials = try container.decodeIfPresent(Bool.self, forKey: .carriesCredentials) ?? false
    }

    /// Encodes every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(method, forKey: .method)
        try container.encode(path, forKey: .path)
        try container.encode(query, forKey: .query)
        try container.encode(headers, forKey: .headers)
        try container.encodeIfPresent(body, forKey: .body)
        try container.encodeIfPresent(contentType, forKey: .contentType)
        try container.encode(expectedStatuses, forKey: .expectedStatuses)
        try container.encode(decoder, forKey: .decoder)
        try container.encodeIfPresent(isIdempotent, forKey: .isIdempotent)
        try container.encodeIfPresent(timeout, forKey: .timeout)
        if carriesCredentials { try container.encode(carriesCredentials, forKey: .carriesCredentials) }
    }

    /// Checks the template without arguments: name, method, statuses, decoder name, header names and
    /// the syntax of every template string.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` describing the first problem.
    package func validate() throws {
        func fail(_ message: String) -> ProviderError {
            ProviderError(.invalidArgument, "template \(name.isEmpty ? "(unnamed)" : name): \(message)")
        }
        guard !name.isEmpty else { throw fail("has no name") }
        guard RequestTemplate.isToken(method) else { throw fail("bad method \"\(method)\"") }
        guard !expectedStatuses.isEmpty, expectedStatuses.allSatisfy({ (100...599).contains($0) }) else {
            throw fail("expectedStatuses must list HTTP statuses")
        }
        guard !decoder.isEmpty else { throw fail("has no decoder") }
        if let timeout, !(timeout > 0 && timeout <= 86_400) { throw fail("timeout must be between 0 and 86400 seconds") }
        for header in headers where !RequestTemplate.isToken(header.name) { throw fail("bad header name \"\(header.name)\"") }
        if let contentType, contentType.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) {
            throw fail("bad content type")
        }
        _ = try TemplateString(parsing: path)
        for field in query + headers {
            _ = try TemplateString(parsing: field.name)
            _ = try TemplateString(parsing: field.value)
        }
        try body?.validate()
    }

    /// Builds the request for `arguments`, its path appended to `baseURL`'s path
    /// (`http://host/nuxeo` + `/api/v1/path/` → `http://host/nuxeo/api/v1/path/`).
    ///
    /// Nothing is sent; ``RequestTemplateExecutor`` sends what this builds.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a malformed template, a missing required argument,
    ///   or a value that cannot stand where its placeholder is.
    public func makeRequest(baseURL: URL, arguments: TemplateArguments = .none) throws -> TransportRequest {
        try validate()
        let renderer = TemplateRenderer(arguments: arguments, templateName: name)

        // Path, and the query written inline after `?`.
        let pieces = try TemplateString(parsing: path).split(separator: "?", maxSplits: 1)
        let renderedPath = try renderer.render(pieces[0], in: .path).text
        var queryItems: [(name: TemplateString, value: TemplateString?)] = []
        if pieces.count > 1 {
            for item in pieces[1].split(separator: "&") where !item.parts.isEmpty {
                let pair = item.split(separator: "=", maxSplits: 1)
                queryItems.append((pair[0], pair.count > 1 ? pair[1] : nil))
            }
        }
        for field in query {
            queryItems.append((try TemplateString(parsing: field.name), try TemplateString(parsing: field.value)))
        }
        var queryParts: [String] = []
        for item in queryItems {
            queryParts += try render(queryItem: item.name, value: item.value, with: renderer)
        }

        let url = try RequestTemplate.compose(baseURL: baseURL, path: renderedPath, query: queryParts, templateName: name)

        var httpHeaders = HTTPHeaders()
        for field in headers {
            let value = try renderer.render(TemplateString(parsing: field.value), in: .header)
            if value.omitted { continue }
            httpHeaders.add(name: field.name, value: value.text)
        }

        var requestBody: HTTPRequestBody?
        if let body, let bytes = try body.render(with: renderer) {
            requestBody = .bytes(ByteBuffer(bytes: bytes))
            if !httpHeaders.contains(name: "content-type") {
                httpHeaders.add(name: "Content-Type", value: contentType ?? body.defaultContentType)
            }
        }
        var request = TransportRequest(
            method: HTTPMethod(rawValue: method), url: url, headers: httpHeaders, body: requestBody,
            deadline: timeout.map { .milliseconds(Int64(exactly: (min(max($0, 0), 86_400) * 1000).rounded()) ?? 0) },
            isIdempotent: isIdempotent)
        request.carriesCredentials = carriesCredentials
        return request
    }

    private func render(queryItem name: TemplateString, value: TemplateString?, with renderer: TemplateRenderer) throws -> [String] {
        let renderedName = try renderer.render(name, in: .raw)
        if renderedName.omitted { return [] }
        let encodedName = PercentEncoding.formEncode(renderedName.text)
        guard let value else { return [encodedName] }
        if let placeholder = value.soloPlaceholder, let elements = try renderer.value(of: placeholder)?.arrayValue {
            return try elements.map { element in
                guard let text = element.text else {
                    throw renderer.fail("argument \(placeholder.reference) has an element that cannot be written as text")
                }
                return encodedName + "=" + PercentEncoding.formEncode(text)
            }
        }
        let renderedValue = try renderer.render(value, in: .raw)
        if renderedValue.omitted { return [] }
        return [encodedName + "=" + PercentEncoding.formEncode(renderedValue.text)]
    }

    /// Appends an encoded path and query to a base URL (whose own query is kept and whose fragment is dropped).
    static func compose(baseURL: URL, path: String, query: [String], templateName: String) throws -> URL {
        var base = baseURL.absoluteString
        if let hash = base.firstIndex(of: "#") { base = String(base[..<hash]) }
        var queryParts: [String] = []
        if let mark = base.firstIndex(of: "?") {
            let existing = String(base[base.index(after: mark)...])
            if !existing.isEmpty { queryParts.append(existing) }
            base = String(base[..<mark])
        }
        if !path.isEmpty {
            while base.hasSuffix("/") { base.removeLast() }
            base += path.hasPrefix("/") ? path : "/" + path
        }
        queryParts += query
        if !queryParts.isEmpty { base += "?" + queryParts.joined(separator: "&") }
        guard let url = URL(string: base), url.scheme != nil else {
            throw ProviderError(.invalidArgument, "template \(templateName): cannot make a URL from the base URL and path")
        }
        return url
    }

    /// Whether `text` is an HTTP token (a method or header name).
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                PercentEncoding.isUnreserved(byte) || "!#$%&'*+^`|".utf8.contains(byte)
            }
    }
}

import Foundation
import NIOConcurrencyHelpers

/// Removes secrets from what is logged or put in an error.
///
/// Header values of `Authorization`, cookies and token headers, URL user info, and
/// query parameters whose names look like secrets are replaced by `<redacted>`.
///
/// An adapter whose server carries a secret under a name of its own (a password header, a
/// token query parameter, a session cookie) declares it once with
/// ``register(secretHeaders:queryNames:cookieNames:)``; from then on every place that masks
/// secrets masks it too: the HTTP kit's trace logs and request summaries, error messages, retry
/// notices, and the headers the request executor strips before following a redirect to another
/// origin.
public enum Redactor {
    /// The built-in header names whose values are never logged (lowercased).
    package static let secretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-authentication-token",
        "x-auth-token", "x-api-key", "x-secure-token", "x-csrf-token", "x-no-basic-header-secret",
    ]

    /// The built-in query parameter names (lowercased) whose values are never logged.
    package static let secretQueryNames: Set<String> = [
        "token", "secure_token", "access_token", "refresh_token", "password", "pass", "passwd", "userpass",
        "pwd", "secret", "key", "api_key", "apikey", "auth", "sig", "signature", "captcha_code", "session",
    ]

    /// The placeholder put where a secret was.
    public static let mask = "<redacted>"

    /// Declares more secret names, for the whole process: the values of the headers
    /// `secretHeaders`, of the query or form parameters `queryNames`, and of the cookies
    /// `cookieNames` are masked wherever Strata masks secrets, from this call on.
    ///
    /// Call it where the adapter is set up, before its first request (its factory's `init`, or
    /// its provider's); calling it again with names already declared changes nothing, and a
    /// name is never removed. Names are compared without regard to case.
    ///
    /// A cookie's value is masked wherever `name=value` appears in text or in a URL (a
    /// `;jsessionid=` path parameter, a query); the `Cookie` and `Set-Cookie` headers are
    /// masked whole already.
    ///
    /// ```swift
    /// Redactor.register(secretHeaders: ["X-Vault-Password"], queryNames: ["pw"], cookieNames: ["vault_sid"])
    /// ```
    public static func register(secretHeaders: [String] = [], queryNames: [String] = [], cookieNames: [String] = []) {
        registered.withLockedValue { names in
            let headers = names.headers.union(secretHeaders.map { $0.lowercased() })
            let queries = names.queries.union(queryNames.map { $0.lowercased() })
            let cookies = names.cookies.union(cookieNames.map { $0.lowercased() })
            guard headers != names.headers || queries != names.queries || cookies != names.cookies else { return }
            names = Names(headers: headers, queries: queries, cookies: cookies)
        }
    }

    /// Every secret header name, built-in and registered (lowercased).
    package static var allSecretHeaders: Set<String> { secretHeaders.union(current.headers) }

    /// Whether the values of the query or form parameter `name` are secret.
    private static func isSecretQueryName(_ name: String, in names: Names) -> Bool {
        let lowercased = name.lowercased()
        return secretQueryNames.contains(lowercased) || names.queries.contains(lowercased) || names.cookies.contains(lowercased)
    }

    /// The names adapters registered, with the patterns of ``redact(_:)`` made from them.
    private struct Names: Sendable {
        var headers: Set<String> = []
        var queries: Set<String> = []
        var cookies: Set<String> = []
        /// Compiled once per change of the names (compiling on every call made each error
        /// message cost as much as parsing a page).
        let rules: [(regex: NSRegularExpression, template: String)]

        init(headers: Set<String> = [], queries: Set<String> = [], cookies: Set<String> = []) {
            self.headers = headers
            self.queries = queries
            self.cookies = cookies
            rules = Redactor.rules(
                headers: Redactor.secretHeaders.union(headers), names: Redactor.secretQueryNames.union(queries).union(cookies))
        }
    }

    private static let registered = NIOLockedValueBox(Names())
    private static var current: Names { registered.withLockedValue { $0 } }

    /// `url` without user info and with secret query values masked.
    public static func redact(url: URL, includeHost: Bool = true) -> String {
        // `webdav:ann:hunter2@host/x` (a `//` forgotten) parses with no host and the user info
        // at the start of its path, where clearing the user and password finds nothing.
        if url.host == nil, let scheme = url.scheme {
            let rest = url.absoluteString.dropFirst(scheme.count + 1)
            if let at = rest.firstIndex(of: "@"), !rest[..<at].contains("/") {
                guard includeHost else { return redact(rest[at...].firstIndex(of: "/").map { String(rest[$0...]) } ?? "/") }
                return redact("\(scheme):\(mask)\(rest[at...])")
            }
        }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return mask }
        let names = current
        components.user = nil
        components.password = nil
        // A session cookie carried as a path parameter (`/app;jsessionid=…/x`), masked as text:
        // the mask is not valid percent-encoding.
        var maskedPath: String?
        if !names.cookies.isEmpty, components.percentEncodedPath.contains(";") {
            let path = maskingPathParameters(components.percentEncodedPath, cookies: names.cookies)
            if path != components.percentEncodedPath {
                maskedPath = path
                components.percentEncodedPath = ""
            }
        }
        // The query is rebuilt as text: the mask is not valid percent-encoding, and
        // URLComponents traps when given query items that are not.
        let query = components.percentEncodedQueryItems.map { items in
            items.map { item -> String in
                let name = item.name.removingPercentEncoding ?? item.name
                let value = isSecretQueryName(name, in: names) ? mask : item.value
                return value.map { "\(item.name)=\($0)" } ?? item.name
            }.joined(separator: "&")
        }
        let fragment = components.percentEncodedFragment
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        var text: String
        if includeHost {
            guard let base = components.string else { return mask }
            text = base + (maskedPath ?? "")
        } else {
            let path = maskedPath ?? components.percentEncodedPath
            text = path.isEmpty ? "/" : path
        }
        if let query { text += "?" + query }
        if includeHost, let fragment { text += "#" + fragment }
        return text
    }

    /// `headers` with secret values masked, as `name: value` lines.
    package static func redact<Headers: Sequence>(headers: Headers) -> [String] where Headers.Element == (name: String, value: String) {
        let registered = current.headers
        return headers.map { name, value in
            let lowercased = name.lowercased()
            return secretHeaders.contains(lowercased) || registered.contains(lowercased) ? "\(name): \(mask)" : "\(name): \(value)"
        }
    }

    /// `path` with the values of its `;name=value` parameters masked where `name` is a cookie's.
    private static func maskingPathParameters(_ path: String, cookies: Set<String>) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            var parts = segment.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            for index in parts.indices.dropFirst() {
                guard let equals = parts[index].firstIndex(of: "=") else { continue }
                let name = String(parts[index][..<equals])
                if cookies.contains((name.removingPercentEncoding ?? name).lowercased()) { parts[index] = "\(name)=\(mask)" }
            }
            return parts.joined(separator: ";")
        }.joined(separator: "/")
    }

    /// `text` with anything that looks like a secret masked: URL user info, secret query or
    /// form values (`password=…`), JSON members with secret names (`"password": "…"`), the
    /// value of a secret header quoted back (`Authorization: …` to the end of the line), and
    /// `Basic`/`Bearer` credentials.
    public static func redact(_ text: String) -> String {
        var result = text
        for rule in current.rules {
            result = rule.regex.stringByReplacingMatches(
                in: result, range: NSRange(result.startIndex..., in: result), withTemplate: rule.template)
        }
        return result
    }

    /// The patterns of ``redact(_:)`` for the secret header names `headers` and the secret
    /// parameter names `names`.
    private static func rules(headers: Set<String>, names: Set<String>) -> [(regex: NSRegularExpression, template: String)] {
        let headers = headers.sorted().map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
        let names = names.sorted().map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
        let patterns: [(String, NSRegularExpression.Options, String)] = [
            // Authorization: Digest username="ann", … — a secret header quoted back, to the end of its line.
            ("(\\b(?:\(headers))\\s*:\\s*)[^\\r\\n<]+", .caseInsensitive, "$1\(mask)"),
            // "password": "…" in a JSON body quoted back.
            ("(\"(?:\(names))\"\\s*:\\s*\")(?:[^\"\\\\]|\\\\.)*", .caseInsensitive, "$1\(mask)"),
            // scheme://user:password@host
            ("([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\\s]+@", [], "$1\(mask)@"),
            // scheme:user:password@host, a `//` forgotten (the user and the password both there).
            ("(\\b[a-zA-Z][a-zA-Z0-9+.-]*:)[^/@\\s:]+:[^/@\\s]+@", [], "$1\(mask)@"),
            // password=… in a query, a form or free text.
            ("((?:^|[?&;,\\s])(?:\(names))=)[^&\\s\"']*", .caseInsensitive, "$1\(mask)"),
            ("((?:Basic|Bearer)\\s+)[A-Za-z0-9+/=._~-]+", .caseInsensitive, "$1\(mask)"),
        ]
        return patterns.compactMap { pattern, options, template in
            (try? NSRegularExpression(pattern: pattern, options: options)).map { ($0, template) }
        }
    }
}

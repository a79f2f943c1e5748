import Foundation

/// Removes secrets from what is logged or put in an error.
///
/// Header values of `Authorization`, cookies and token headers, URL user info, and
/// query parameters whose names look like secrets are replaced by `<redacted>`.
public enum Redactor {
    /// Header names whose values are never logged (lowercased).
    package static let secretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-authentication-token",
        "x-auth-token", "x-api-key", "x-secure-token", "x-csrf-token", "x-no-basic-header-secret",
    ]

    /// Query parameter names (lowercased) whose values are never logged.
    package static let secretQueryNames: Set<String> = [
        "token", "secure_token", "access_token", "refresh_token", "password", "pass", "passwd", "userpass",
        "pwd", "secret", "key", "api_key", "apikey", "auth", "sig", "signature", "captcha_code", "session",
    ]

    /// The placeholder put where a secret was.
    public static let mask = "<redacted>"

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
        components.user = nil
        components.password = nil
        // The query is rebuilt as text: the mask is not valid percent-encoding, and
        // URLComponents traps when given query items that are not.
        let query = components.percentEncodedQueryItems.map { items in
            items.map { item -> String in
                let name = item.name.removingPercentEncoding ?? item.name
                let value = secretQueryNames.contains(name.lowercased()) ? mask : item.value
                return value.map { "\(item.name)=\($0)" } ?? item.name
            }.joined(separator: "&")
        }
        let fragment = components.percentEncodedFragment
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        var text: String
        if includeHost {
            guard let base = components.string else { return mask }
            text = base
        } else {
            text = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        }
        if let query { text += "?" + query }
        if includeHost, let fragment { text += "#" + fragment }
        return text
    }

    /// `headers` with secret values masked, as `name: value` lines.
    package static func redact<Headers: Sequence>(headers: Headers) -> [String] where Headers.Element == (name: String, value: String) {
        headers.map { name, value in
            secretHeaders.contains(name.lowercased()) ? "\(name): \(mask)" : "\(name): \(value)"
        }
    }

    /// `text` with anything that looks like a secret masked: URL user info, secret query or
    /// form values (`password=…`), JSON members with secret names (`"password": "…"`), the
    /// value of a secret header quoted back (`Authorization: …` to the end of the line), and
    /// `Basic`/`Bearer` credentials.
    public static func redact(_ text: String) -> String {
        var result = text
        for rule in rules {
            result = rule.regex.stringByReplacingMatches(
                in: result, range: NSRange(result.startIndex..., in: result), withTemplate: rule.template)
        }
        return result
    }

    /// The patterns of ``redact(_:)``, compiled once (compiling them on every call made each
    /// error message cost as much as parsing a page).
    private static let rules: [(regex: NSRegularExpression, template: String)] = {
        let headers = secretHeaders.sorted().map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
        let names = secretQueryNames.sorted().map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
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
    }()
}

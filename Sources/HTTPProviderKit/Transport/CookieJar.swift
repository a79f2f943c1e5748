import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1
import ProviderAPI

/// Session cookies kept per server, for APIs that hold a session in a cookie (Pydio's `AjaXplorer`).
///
/// Cookies are kept per origin host and port and sent back only there; paths, domains and
/// expiry dates beyond "already expired" are not modelled: these are session cookies of one
/// provider, not a browser's jar. A cookie is deleted by `Max-Age=0`, an expiry in the past or
/// the value `deleted`. ``CookieJarTransport`` applies a jar to every exchange.
package final class CookieJar: Sendable {
    private let cookies = NIOLockedValueBox<[String: [(name: String, value: String)]]>([:])

    /// Creates an empty jar.
    package init() {}

    static func key(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        return "\(url.host?.lowercased() ?? ""):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// The `Cookie` header value for a request to `url`, or `nil` when the jar has none for it.
    package func header(for url: URL) -> String? {
        let list = cookies.withLockedValue { $0[Self.key(url)] } ?? []
        return list.isEmpty ? nil : list.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// The value of the cookie `name` kept for `url`.
    package func value(_ name: String, for url: URL) -> String? {
        cookies.withLockedValue { $0[Self.key(url)]?.first { $0.name == name }?.value }
    }

    /// Keeps the cookies that `Set-Cookie` headers of an answer from `url` set, and drops the ones they delete.
    package func store(_ headers: HTTPHeaders, from url: URL) {
        let lines = headers[canonicalForm: "set-cookie"].map(String.init)
        guard !lines.isEmpty else { return }
        let key = Self.key(url)
        cookies.withLockedValue { all in
            var list = all[key] ?? []
            for line in lines {
                let parts = line.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { continue }
                let name = String(pair[..<equals])
                let value = String(pair[pair.index(after: equals)...])
                guard !name.isEmpty else { continue }
                list.removeAll { $0.name == name }
                if !Self.deletes(value: value, attributes: parts.dropFirst()) { list.append((name, value)) }
            }
            all[key] = list
        }
    }

    /// Forgets every cookie.
    package func removeAll() { cookies.withLockedValue { $0.removeAll() } }

    /// One kept cookie (`SessionCookie`).
    package typealias Entry = SessionCookie

    /// Every kept cookie, to carry a session to another jar (``restore(_:)``).
    package var entries: [Entry] {
        cookies.withLockedValue { all in
            all.keys.sorted().flatMap { origin in (all[origin] ?? []).map { Entry(origin: origin, name: $0.name, value: $0.value) } }
        }
    }

    /// Keeps `entries` as if their origins had set them, replacing cookies of the same name.
    package func restore(_ entries: [Entry]) {
        cookies.withLockedValue { all in
            for entry in entries where !entry.name.isEmpty {
                var list = all[entry.origin] ?? []
                list.removeAll { $0.name == entry.name }
                list.append((entry.name, entry.value))
                all[entry.origin] = list
            }
        }
    }

    private static func deletes(value: String, attributes: ArraySlice<String>) -> Bool {
        if value.isEmpty || value == "deleted" { return true }
        for attribute in attributes {
            let lowered = attribute.lowercased()
            if lowered.hasPrefix("max-age="), let age = Int(lowered.dropFirst(8)), age <= 0 { return true }
            if lowered.hasPrefix("expires="), let date = HTTPDate.parse(String(attribute.dropFirst(8))), date < Date() { return true }
        }
        return false
    }
}

/// A transport that sends a ``CookieJar``'s cookies with each request and keeps the ones answers set.
package struct CookieJarTransport: HTTPTransport {
    /// The transport underneath.
    package let base: any HTTPTransport
    /// The jar.
    package let jar: CookieJar

    /// Wraps `base` with `jar`.
    package init(_ base: any HTTPTransport, jar: CookieJar = CookieJar()) {
        self.base = base
        self.jar = jar
    }

    package func send(_ request: TransportRequest) async throws -> TransportResponse {
        var outgoing = request
        if let cookie = jar.header(for: request.url) { outgoing.headers.replaceOrAdd(name: "Cookie", value: cookie) }
        let response = try await base.send(outgoing)
        jar.store(response.headers, from: request.url)
        return response
    }
}

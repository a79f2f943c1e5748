import Foundation

/// Checks of URLs that come from a user or a server, made before they reach the transport.
///
/// `URL(string:)` accepts any port number (`http://host:99999/`), and NIO's `SocketAddress`
/// traps on one above 65535; every URL is checked here first so that a bad one is an error.
package enum URLChecks {
    /// Whether `url` names no port, or a port in 1…65535.
    package static func hasValidPort(_ url: URL) -> Bool {
        if let port = url.port { return (1...65535).contains(port) }
        // `URL.port` is nil for a port too large for an `Int`: look at the text itself.
        guard let text = portText(of: url) else { return true }
        return text.isEmpty
    }

    /// Whether `url` is an `http` or `https` URL with a host and a valid port.
    package static func isValidHTTPURL(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        guard let host = url.host, !host.isEmpty else { return false }
        return hasValidPort(url)
    }

    /// Throws ``ProviderError/Code/invalidArgument`` unless `url`'s port, if any, is in 1…65535.
    package static func requireValidPort(_ url: URL) throws {
        guard hasValidPort(url) else {
            throw ProviderError(.invalidArgument, "the port of \(Redactor.redact(url: url)) is not in 1…65535")
        }
    }

    /// The text after the host's `:` in the authority, `nil` when there is no `:`.
    static func portText(of url: URL) -> Substring? {
        let text = url.absoluteString
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let rest = text[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        let afterHost: Substring
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { return nil }
            afterHost = hostPort[hostPort.index(after: close)...]
        } else {
            guard let colon = hostPort.firstIndex(of: ":") else { return nil }
            afterHost = hostPort[colon...]
        }
        guard afterHost.hasPrefix(":") else { return nil }
        return afterHost.dropFirst()
    }
}

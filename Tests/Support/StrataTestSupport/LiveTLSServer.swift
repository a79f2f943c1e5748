import Foundation
import ProviderAPI
import Testing

/// The nginx that `scripts/test` (and `scripts/with-servers`) also serves over TLS on loopback,
/// read from the environment: its `https` URL (`STRATA_NGINX_TLS_URL`), the throw-away authority
/// that signed its certificate (`STRATA_TEST_CA`), its access log recording each request's
/// protocol (`STRATA_NGINX_TLS_LOG`), and the plain nginx's test account.
public struct LiveTLSServer: Sendable {
    /// The server's `https` root URL.
    public let url: URL
    /// The PEM file of the authority that signed its certificate.
    public let authority: URL
    /// Its access log: one line per request, ending with the protocol (`HTTP/1.1`, `HTTP/2.0`).
    public let log: URL
    /// The test account.
    public let user: String
    public let password: String

    /// The test account.
    public var credentials: Credentials { .basic(username: user, password: password) }

    /// The server; records an issue and throws when the environment does not name it.
    public static func nginx(sourceLocation: SourceLocation = #_sourceLocation) throws -> LiveTLSServer {
        let environment = ProcessInfo.processInfo.environment
        let plain = try LiveWebDAVServer.named("nginx", sourceLocation: sourceLocation)
        guard let text = environment["STRATA_NGINX_TLS_URL"], let url = URL(string: text),
            let authority = environment["STRATA_TEST_CA"], let log = environment["STRATA_NGINX_TLS_LOG"]
        else {
            Issue.record(
                """
                STRATA_NGINX_TLS_URL, STRATA_TEST_CA and STRATA_NGINX_TLS_LOG are not set: run the tests with scripts/test or \
                scripts/with-servers
                """,
                sourceLocation: sourceLocation)
            throw ProviderError(.network, "no TLS server")
        }
        return LiveTLSServer(
            url: url, authority: URL(fileURLWithPath: authority), log: URL(fileURLWithPath: log), user: plain.user,
            password: plain.password)
    }

    /// The protocols the log names for the requests whose target holds `marker`, in order.
    public func protocols(of marker: String) throws -> [String] {
        let text = try String(contentsOf: log, encoding: .utf8)
        return text.split(separator: "\n").filter { $0.contains(marker) }.compactMap { $0.split(separator: " ").last.map(String.init) }
    }
}

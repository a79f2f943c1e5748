import Foundation
import ProviderAPI
import Testing

/// One of the real WebDAV servers `scripts/test` (and `scripts/with-servers`) starts on loopback,
/// read from the environment (`STRATA_<NAME>_URL`, `STRATA_DAV_USER`, `STRATA_DAV_PASS`).
///
/// A missing server is a failure, never a skip.
public struct LiveWebDAVServer: Sendable, CustomStringConvertible {
    /// The server's name, such as `apache`.
    public let name: String
    /// Its root URL.
    public let url: URL
    /// The test account's user name and password.
    public let user: String
    public let password: String

    /// The test account.
    public var credentials: Credentials { .basic(username: user, password: password) }

    public var description: String { name }

    /// The server called `name`; records an issue and throws when the environment does not name it.
    public static func named(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> LiveWebDAVServer {
        let environment = ProcessInfo.processInfo.environment
        let key = "STRATA_\(name.uppercased())_URL"
        guard let text = environment[key], let url = URL(string: text),
            let user = environment["STRATA_DAV_USER"], let password = environment["STRATA_DAV_PASS"]
        else {
            Issue.record(
                "\(key), STRATA_DAV_USER and STRATA_DAV_PASS are not set: run the tests with scripts/test or scripts/with-servers",
                sourceLocation: sourceLocation)
            throw ProviderError(.network, "no \(name) server")
        }
        return LiveWebDAVServer(name: name, url: url, user: user, password: password)
    }
}

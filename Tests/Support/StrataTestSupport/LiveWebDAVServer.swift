import Foundation
import ProviderAPI
import Testing

/// One of the real WebDAV servers `scripts/test` (and `scripts/with-servers`) starts on loopback,
/// read from the environment (`STRATA_<NAME>_URL`, `STRATA_DAV_USER`, `STRATA_DAV_PASS`).
///
/// A test that needs one carries the `.liveServers` trait. Plain `swift test`
/// (no servers, `STRATA_LIVE_REQUIRED` unset) reports such a test as skipped, saying how to run
/// it; under `scripts/test` and `scripts/with-servers`, which set `STRATA_LIVE_REQUIRED=1`, it
/// runs, and a missing server is a failure, never a skip.
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
                """
                \(key), STRATA_DAV_USER and STRATA_DAV_PASS are not set: run the tests with scripts/test or \
                scripts/with-servers (a test that needs a real server carries the .liveServers trait)
                """,
                sourceLocation: sourceLocation)
            throw ProviderError(.network, "no \(name) server")
        }
        return LiveWebDAVServer(name: name, url: url, user: user, password: password)
    }
}

extension LiveWebDAVServer {
    /// Whether the tests that need the real servers run: when `STRATA_LIVE_REQUIRED=1` (set by
    /// `scripts/test` and `scripts/with-servers`: a missing server then fails the test) or when
    /// the servers' account is in the environment (`STRATA_DAV_USER`, exported with the servers'
    /// URLs). Otherwise, as in a plain `swift test` on a clean clone, they are skipped.
    public static var liveSuitesRun: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["STRATA_LIVE_REQUIRED"] == "1" || environment["STRATA_DAV_USER"] != nil
    }

    /// Why a live test did not run, shown by `swift test` beside the skipped test.
    public static let notRunReason: Comment = """
        needs the real WebDAV servers: run it with scripts/test, or scripts/with-servers swift test --filter …, \
        which start them and set STRATA_LIVE_REQUIRED=1 (a missing server then fails)
        """
}

extension Trait where Self == ConditionTrait {
    /// For a test or suite that needs the real WebDAV servers (``LiveWebDAVServer``): skipped,
    /// with the way to run it, when they are neither present nor required; run otherwise.
    public static var liveServers: Self {
        .enabled(if: LiveWebDAVServer.liveSuitesRun, LiveWebDAVServer.notRunReason)
    }
}

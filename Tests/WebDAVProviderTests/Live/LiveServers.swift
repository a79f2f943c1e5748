import Foundation
import ProviderAPI
import Testing
import WebDAVProvider
import HTTPProviderKit

/// The real WebDAV servers `scripts/test` starts on loopback, read from the environment.
///
/// A missing server is a failure, never a skip: run the tests through `scripts/test`
/// (or `scripts/with-servers swift test`).
enum LiveServers {
    struct Server: Sendable, CustomStringConvertible {
        let name: String
        let url: URL
        let credentials: Credentials
        var description: String { name }
    }

    /// The servers every live test and the conformance suite run against (each passes it with
    /// 0 failed): every server `scripts/test` starts.
    static let names = ["apache", "sabre", "lighttpd", "nginx", "rclone"]

    /// Every server `scripts/test` starts (the same list as ``names``).
    static let allNames = names

    static func server(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Server {
        let environment = ProcessInfo.processInfo.environment
        let key = "STRATA_\(name.uppercased())_URL"
        guard let text = environment[key], let url = URL(string: text),
            let user = environment["STRATA_DAV_USER"], let password = environment["STRATA_DAV_PASS"]
        else {
            Issue.record(
                "\(key), STRATA_DAV_USER and STRATA_DAV_PASS are not set: run the tests with scripts/test",
                sourceLocation: sourceLocation)
            throw ProviderError(.network, "no \(name) server")
        }
        return Server(name: name, url: url, credentials: .basic(username: user, password: password))
    }

    /// A configuration rooted at `folder` below the server's root.
    static func configuration(
        _ server: Server, folder: String = "", transport: any HTTPTransport = AsyncHTTPClientTransport.shared,
        credentials: Credentials? = nil, retry: RetryPolicy = .standard
    ) -> ProviderConfiguration {
        let url = folder.isEmpty ? server.url : server.url.appendingPathComponent(folder, isDirectory: true)
        return ProviderConfiguration(
            url: url, credentials: credentials ?? server.credentials, transport: transport, retry: retry)
    }

    /// A fresh folder on the server for one test, and a provider rooted there.
    static func scratch(_ server: Server) async throws -> (provider: WebDAVProvider, root: WebDAVProvider, name: String) {
        let root = try await WebDAVProvider.connect(configuration(server))
        let name = "live-\(UInt64.random(in: 0...UInt64.max))"
        _ = try await root.createFolder(named: name, in: .root)
        let provider = try await WebDAVProvider.connect(configuration(server, folder: name))
        return (provider, root, name)
    }
}

import Foundation
import ProviderAPI
import StrataTestSupport
import Testing
import WebDAVProvider
import HTTPProviderKit

/// The real WebDAV servers `scripts/test` starts on loopback, read from the environment.
///
/// The suites that use them carry the `.liveServers` trait: plain `swift test` skips them and says
/// how to run them; under `scripts/test` (or `scripts/with-servers swift test`), which set
/// `STRATA_LIVE_REQUIRED=1`, they run and a missing server is a failure, never a skip.
enum LiveServers {
    typealias Server = LiveWebDAVServer

    /// The servers every live test and the conformance suite run against (each passes it with
    /// 0 failed): every server `scripts/test` starts.
    /// `rclonefold` is rclone serve with `--vfs-case-insensitive`: a server that folds case;
    /// `copyparty` is the Python file server with WebDAV writes on (`daw`); `chezdav` is phodav's
    /// server (no login: it speaks only HTTP Digest). Their quirks: `scripts/lib/servers.sh`.
    static let names = ["apache", "sabre", "lighttpd", "nginx", "rclone", "rclonefold", "copyparty", "chezdav"]

    /// Every server `scripts/test` starts (the same list as ``names``).
    static let allNames = names

    /// The servers that ask for a login. chezdav knows only HTTP Digest, and with an htdigest file
    /// checks the user name but not the password (`scripts/lib/servers.sh`), so it runs without a
    /// login and takes any password. Digest is tested on Apache and lighttpd (`WebDAVDigestLiveTests`).
    static let loginNames = names.filter { $0 != "chezdav" }

    /// The servers that report RFC 4331 quota (`quota-available-bytes`) on their root.
    static let quotaNames: Set<String> = ["sabre", "copyparty", "chezdav"]

    static func server(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Server {
        try LiveWebDAVServer.named(name, sourceLocation: sourceLocation)
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

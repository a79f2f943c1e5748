import Foundation
import NextcloudTestServer
import ProviderAPI
import WebDAVProvider
import HTTPProviderKit

/// A loopback ownCloud/Nextcloud server for one test, and dialect providers talking to it.
struct LoopbackNextcloud {
    static let user = "alice"
    static let password = "secret-\(UInt32.random(in: 0...UInt32.max))"

    let server: NextcloudTestServer
    let flavor: WebDAVDialect.Flavor

    static func start(
        flavor: WebDAVDialect.Flavor = .nextcloud, chunking: Bool = true, search: Bool = true, quotaBytes: Int64? = nil,
        appPasswords: [String: String] = [:], bearerTokens: [String: String] = [:]
    ) async throws -> LoopbackNextcloud {
        let configuration = NextcloudTestServer.Configuration(
            flavor: flavor == .nextcloud ? .nextcloud : .owncloud,
            users: [user: password, "bob": "bob-secret"], appPasswords: appPasswords, bearerTokens: bearerTokens,
            chunking: chunking, search: search, quotaBytes: quotaBytes, groups: ["staff": [user, "bob"]])
        return LoopbackNextcloud(server: try await NextcloudTestServer.start(configuration), flavor: flavor)
    }

    /// The URL of a folder in alice's files (`remote.php/dav/files/alice/…`).
    func davURL(_ folder: String = "") -> URL {
        let encoded = folder.split(separator: "/").map { PercentEncoding.encode(String($0), allowing: PercentEncoding.isUnreserved) }
        let text = server.baseURL.absoluteString.trimmingSuffix("/") + "/remote.php/dav/files/\(Self.user)/" + encoded.joined(separator: "/")
        return URL(string: text) ?? server.baseURL
    }

    func configuration(
        folder: String = "", credentials: Credentials? = nil, options: [String: String] = [:],
        transport: any HTTPTransport = AsyncHTTPClientTransport.shared, retry: RetryPolicy = .standard
    ) -> ProviderConfiguration {
        ProviderConfiguration(
            url: davURL(folder), credentials: credentials ?? .basic(username: Self.user, password: Self.password),
            transport: transport, options: options, retry: retry)
    }

    func provider(
        folder: String = "", credentials: Credentials? = nil, options: [String: String] = [:],
        transport: any HTTPTransport = AsyncHTTPClientTransport.shared, retry: RetryPolicy = .standard
    ) async throws -> WebDAVProvider {
        try await OwnCloudProviderFactory.connect(
            configuration(folder: folder, credentials: credentials, options: options, transport: transport, retry: retry),
            flavor: flavor)
    }

    /// A fresh folder in alice's files and a provider rooted there.
    func scratch(options: [String: String] = [:], retry: RetryPolicy = .standard) async throws -> (WebDAVProvider, String) {
        let root = try await provider()
        let name = "t-\(UInt32.random(in: 0...UInt32.max))"
        _ = try await root.createFolder(named: name, in: .root)
        return (try await provider(folder: name, options: options, retry: retry), name)
    }

    func stop() async { await server.stop() }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

/// Bytes of a seeded pattern, so that content errors show.
func patternBytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
}

import Foundation
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import HTTPProviderKit

/// A loopback Nuxeo server for one test, and providers talking to it.
struct LoopbackNuxeo {
    static let user = "ann"
    static let password = "secret-\(UInt32.random(in: 0...UInt32.max))"
    static let workspace = "/default-domain/workspaces/strata"

    let server: NuxeoTestServer

    static func start() async throws -> LoopbackNuxeo {
        var configuration = NuxeoTestServer.Configuration()
        configuration.users = [user: password, "Administrator": "Administrator"]
        return LoopbackNuxeo(server: try await NuxeoTestServer.start(configuration))
    }

    /// The server URL of a document path, such as the workspace.
    func url(_ documentPath: String = workspace) -> URL {
        URL(string: server.baseURL.absoluteString + documentPath) ?? server.baseURL
    }

    func configuration(
        root: String = workspace, credentials: Credentials? = nil, options: [String: String] = [:],
        transport: any HTTPTransport = AsyncHTTPClientTransport.shared, retry: RetryPolicy = .standard
    ) -> ProviderConfiguration {
        ProviderConfiguration(
            url: url(root), credentials: credentials ?? .basic(username: Self.user, password: Self.password),
            transport: transport, options: options, retry: retry)
    }

    func provider(
        root: String = workspace, credentials: Credentials? = nil, options: [String: String] = [:],
        transport: any HTTPTransport = AsyncHTTPClientTransport.shared, retry: RetryPolicy = .standard,
        entities: NuxeoEntityRegistry = .standard
    ) async throws -> NuxeoProvider {
        try await NuxeoProvider.connect(
            configuration(root: root, credentials: credentials, options: options, transport: transport, retry: retry),
            entities: entities)
    }

    /// A fresh folder in the workspace and a provider rooted there (decoding with `entities`).
    func scratch(
        options: [String: String] = [:], retry: RetryPolicy = .standard, entities: NuxeoEntityRegistry = .standard
    ) async throws -> NuxeoProvider {
        let root = try await provider()
        let name = "t-\(UInt32.random(in: 0...UInt32.max))"
        _ = try await root.createFolder(named: name, in: .root)
        return try await provider(root: Self.workspace + "/" + name, options: options, retry: retry, entities: entities)
    }

    func stop() async { await server.stop() }
}

/// Bytes of a seeded pattern, so that content errors show.
func patternBytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
}

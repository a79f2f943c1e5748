import Foundation
import ProviderAPI
import PydioProvider
import PydioTestServer
import HTTPProviderKit

/// A loopback Pydio server for one test, and providers talking to it.
struct LoopbackPydio {
    static let user = "ann"
    static let password = "pw-\(UInt32.random(in: 0...UInt32.max))"
    static let workspace = "my-files"

    let server: PydioTestServer

    static func start(_ configure: (inout PydioTestServer.Configuration) -> Void = { _ in }) async throws -> LoopbackPydio {
        var configuration = PydioTestServer.Configuration()
        configuration.users = [user: password, "admin": "admin"]
        configure(&configuration)
        return LoopbackPydio(server: try await PydioTestServer.start(configuration))
    }

    func configuration(
        folder: String = "", password: String = LoopbackPydio.password, options: [String: String] = [:],
        transport: any HTTPTransport = AsyncHTTPClientTransport.shared, retry: RetryPolicy = .standard
    ) -> ProviderConfiguration {
        let url = URL(string: server.baseURL.absoluteString + Self.workspace + (folder.isEmpty ? "" : "/" + folder))!
        return ProviderConfiguration(
            url: url, credentials: .basic(username: Self.user, password: password), transport: transport, options: options, retry: retry)
    }

    /// A fresh folder in the workspace and a provider rooted there.
    func scratch(options: [String: String] = [:], retry: RetryPolicy = .standard) async throws -> PydioProvider {
        let root = try await PydioProvider.connect(configuration())
        let name = "t-\(UInt32.random(in: 0...UInt32.max))"
        _ = try await root.createFolder(named: name, in: .root)
        return try await PydioProvider.connect(configuration(folder: name, options: options, retry: retry))
    }

    func stop() async { await server.stop() }
}

func patternBytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
}

import Foundation
import HTTPProviderKit
import NextcloudTestServer
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import ProviderTesting
import PydioProvider
import PydioTestServer
import StrataTestSupport
import Testing
import TransferEngine
import WebDAVProvider

/// A server for one pair test: a provider, the fresh folder on it that the test owns (``base``),
/// its requests counted, and how to stop the server (for the real servers `scripts/with-servers`
/// runs: how to remove the folder).
struct PairServer: Sendable {
    let name: String
    let provider: any StorageProvider
    let base: ItemPath
    let counting: CountingTransport
    let stop: @Sendable () async -> Void

    init(name: String, provider: any StorageProvider, base: ItemPath = .root, counting: CountingTransport, stop: @escaping @Sendable () async -> Void) {
        self.name = name
        self.provider = provider
        self.base = base
        self.counting = counting
        self.stop = stop
    }

    /// The folder `relative` below ``base``.
    func endpoint(_ relative: String) throws -> TransferEndpoint {
        TransferEndpoint(provider, at: try base.appending(relative))
    }

    /// A loopback Nuxeo server in this process, the provider rooted at a fresh folder of its workspace.
    static func nuxeo() async throws -> PairServer {
        let counting = CountingTransport(AsyncHTTPClientTransport.shared)
        let folder = try await LoopbackFolder.nuxeo(through: counting)
        do {
            let provider = try await NuxeoProvider.connect(folder.configuration(counting))
            return PairServer(name: "Nuxeo", provider: provider, counting: counting, stop: folder.stop)
        } catch {
            await folder.stop()
            throw error
        }
    }

    /// A loopback Pydio server in this process, the provider rooted at a fresh folder of `my-files`.
    static func pydio() async throws -> PairServer {
        let counting = CountingTransport(AsyncHTTPClientTransport.shared)
        let folder = try await LoopbackFolder.pydio(through: counting)
        do {
            let provider = try await PydioProvider.connect(folder.configuration(counting))
            return PairServer(name: "Pydio", provider: provider, counting: counting, stop: folder.stop)
        } catch {
            await folder.stop()
            throw error
        }
    }

    /// A loopback Nextcloud server in this process, the provider rooted at a fresh folder of alice's files.
    static func nextcloud() async throws -> PairServer {
        let password = "nc-\(UInt32.random(in: 0...UInt32.max))"
        let server = try await NextcloudTestServer.start(NextcloudTestServer.Configuration(users: ["alice": password]))
        let counting = CountingTransport(AsyncHTTPClientTransport.shared)
        do {
            let files = server.baseURL.absoluteString.trimmingSuffix("/") + "/remote.php/dav/files/alice"
            let folder = Self.folderName()
            let root = try await OwnCloudProviderFactory.connect(Self.configuration(files + "/", "alice", password, counting), flavor: .nextcloud)
            _ = try await root.createFolder(named: folder, in: .root)
            let provider = try await OwnCloudProviderFactory.connect(
                Self.configuration(files + "/" + folder + "/", "alice", password, counting), flavor: .nextcloud)
            return PairServer(name: "Nextcloud", provider: provider, counting: counting) { await server.stop() }
        } catch {
            await server.stop()
            throw error
        }
    }

    /// A fresh folder on one of the real servers `scripts/with-servers` runs (`apache`, `sabre`), the
    /// provider rooted at the server; a missing server fails the test.
    static func live(_ name: String) async throws -> PairServer {
        let server = try LiveWebDAVServer.named(name)
        let counting = CountingTransport(AsyncHTTPClientTransport.shared)
        let root = try await WebDAVProvider.connect(ProviderConfiguration(url: server.url, credentials: server.credentials, transport: counting))
        let folder = Self.folderName()
        _ = try await root.createFolder(named: folder, in: .root)
        let path = try ItemPath(folder)
        return PairServer(name: name, provider: root, base: path, counting: counting) { try? await root.delete(path) }
    }

    /// A fresh folder name of at most 21 characters: Nuxeo cuts a document's path segment at 24
    /// (`nuxeo.path.segment.maxsize`), and the loopback server does too, so a longer title would
    /// not be the folder's path in the provider's URL.
    static func folderName() -> String { "pair-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))" }

    static func configuration(_ url: String, _ user: String, _ password: String, _ transport: any HTTPTransport) -> ProviderConfiguration {
        ProviderConfiguration(
            url: URL(string: url) ?? URL(fileURLWithPath: "/"), credentials: .basic(username: user, password: password), transport: transport)
    }
}

/// A loopback Nuxeo or Pydio server started in this process, with a fresh folder made in it
/// through a given transport: the folder's URL, its login, and how to stop the server.
struct LoopbackFolder: Sendable {
    let url: String
    let user: String
    let password: String
    let stop: @Sendable () async -> Void

    /// A configuration of a provider rooted at the folder, sending through `transport`.
    func configuration(_ transport: any HTTPTransport) -> ProviderConfiguration {
        PairServer.configuration(url, user, password, transport)
    }

    /// A Nuxeo server and a fresh folder of its workspace `strata`.
    static func nuxeo(through transport: any HTTPTransport) async throws -> LoopbackFolder {
        let password = "nx-\(UInt32.random(in: 0...UInt32.max))"
        var configuration = NuxeoTestServer.Configuration()
        configuration.users = ["ann": password]
        let server = try await NuxeoTestServer.start(configuration)
        return try await made(
            in: server.baseURL.absoluteString + "/default-domain/workspaces/strata", password: password, stop: { await server.stop() }
        ) { try await NuxeoProvider.connect(PairServer.configuration($0, "ann", password, transport)) }
    }

    /// A Pydio server and a fresh folder of its workspace `my-files`.
    static func pydio(through transport: any HTTPTransport) async throws -> LoopbackFolder {
        let password = "py-\(UInt32.random(in: 0...UInt32.max))"
        var configuration = PydioTestServer.Configuration()
        configuration.users = ["ann": password]
        let server = try await PydioTestServer.start(configuration)
        return try await made(in: server.baseURL.absoluteString + "my-files", password: password, stop: { await server.stop() }) {
            try await PydioProvider.connect(PairServer.configuration($0, "ann", password, transport))
        }
    }

    /// Makes a fresh folder in `workspace` through the provider `connect` makes there; stops the
    /// server when that fails.
    private static func made(
        in workspace: String, password: String, stop: @escaping @Sendable () async -> Void,
        connect: (String) async throws -> any StorageProvider
    ) async throws -> LoopbackFolder {
        do {
            let folder = PairServer.folderName()
            _ = try await connect(workspace).createFolder(named: folder, in: .root)
            return LoopbackFolder(url: workspace + "/" + folder, user: "ann", password: password, stop: stop)
        } catch {
            await stop()
            throw error
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

import Foundation
import HTTPProviderKit
import NextcloudTestServer
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import PydioProvider
import PydioTestServer
import Testing
import TransferEngine
import WebDAVProvider

/// Two providers of one Nuxeo, Pydio or Nextcloud (loopback servers in this process), one rooted
/// at a folder and one at its sub-folder: a sync of the sub-folder into the folder is refused by
/// their locations (repository path, workspace path, the user's files), and nothing is deleted.
@Suite("copy and sync refuse a folder and its sub-folder on one Nuxeo, Pydio or Nextcloud")
struct TreeOverlapServerTests {
    /// Fills `top` with `a.txt` and `b/keep.txt`, makes the provider of `b` with `connect`, expects
    /// the sync of it into `top` refused and both files kept.
    static func expectRefused(
        top: any StorageProvider, sourceLocation: SourceLocation = #_sourceLocation, sub connect: () async throws -> any StorageProvider
    ) async throws {
        _ = try await top.upload(data: Data("one".utf8), to: "/a.txt")
        _ = try await top.createFolder(named: "b", in: .root)
        _ = try await top.upload(data: Data("two".utf8), to: "/b/keep.txt")
        let sub = try await connect()
        do {
            _ = try await TransferManager(options: .testing()).sync(from: TransferEndpoint(sub), to: TransferEndpoint(top))
            Issue.record("not refused", sourceLocation: sourceLocation)
        } catch let error as ProviderError {
            #expect(error.code == .invalidArgument, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message?.contains("one tree") == true, "\(error)", sourceLocation: sourceLocation)
        }
        #expect(try await top.data(at: "/a.txt") == Data("one".utf8), sourceLocation: sourceLocation)
        #expect(try await top.data(at: "/b/keep.txt") == Data("two".utf8), sourceLocation: sourceLocation)
    }

    static func configuration(_ url: String, _ user: String, _ password: String) -> ProviderConfiguration {
        ProviderConfiguration(
            url: URL(string: url) ?? URL(fileURLWithPath: "/"), credentials: .basic(username: user, password: password),
            transport: AsyncHTTPClientTransport.shared)
    }

    @Test("Nuxeo: the sub-folder's provider synced into the folder's")
    func nuxeo() async throws {
        var configuration = NuxeoTestServer.Configuration()
        configuration.users = ["ann": "secret-nx"]
        let server = try await NuxeoTestServer.start(configuration)
        let workspace = server.baseURL.absoluteString + "/default-domain/workspaces/strata"
        do {
            let top = try await NuxeoProvider.connect(Self.configuration(workspace, "ann", "secret-nx"))
            try await Self.expectRefused(top: top) { try await NuxeoProvider.connect(Self.configuration(workspace + "/b", "ann", "secret-nx")) }
        } catch {
            Issue.record(error)
        }
        await server.stop()
    }

    @Test("Pydio: the sub-folder's provider synced into the workspace's")
    func pydio() async throws {
        var configuration = PydioTestServer.Configuration()
        configuration.users = ["ann": "secret-py"]
        let server = try await PydioTestServer.start(configuration)
        let workspace = server.baseURL.absoluteString + "my-files"
        do {
            let top = try await PydioProvider.connect(Self.configuration(workspace, "ann", "secret-py"))
            try await Self.expectRefused(top: top) { try await PydioProvider.connect(Self.configuration(workspace + "/b", "ann", "secret-py")) }
        } catch {
            Issue.record(error)
        }
        await server.stop()
    }

    @Test("Nextcloud: the sub-folder of alice's files synced into them")
    func nextcloud() async throws {
        let server = try await NextcloudTestServer.start(NextcloudTestServer.Configuration(users: ["alice": "secret-nc"]))
        let files = server.baseURL.absoluteString.trimmingSuffix("/") + "/remote.php/dav/files/alice/"
        do {
            let top = try await OwnCloudProviderFactory.connect(Self.configuration(files, "alice", "secret-nc"), flavor: .nextcloud)
            try await Self.expectRefused(top: top) {
                try await OwnCloudProviderFactory.connect(Self.configuration(files + "b/", "alice", "secret-nc"), flavor: .nextcloud)
            }
        } catch {
            Issue.record(error)
        }
        await server.stop()
    }
}

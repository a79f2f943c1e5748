import Foundation
import ProviderAPI
import SharedCache
import Testing
import WebDAVProvider
import HTTPProviderKit
import ProviderTesting

/// The offline cache over a server whose folder etags cover their contents.
@Suite("The offline cache over the loopback Nextcloud server")
struct CacheRefreshTests {
    /// /x/y/z/f.txt and /p/g.txt under the provider's root: five folders with the root.
    static func makeTree(_ provider: any StorageProvider) async throws {
        for (name, parent) in [("x", "/"), ("y", "/x"), ("z", "/x/y"), ("p", "/")] {
            _ = try await provider.createFolder(named: name, in: try ItemPath(parent))
        }
        for (name, parent) in [("f.txt", "/x/y/z"), ("g.txt", "/p")] {
            _ = try await provider.upload(DataSource(string: name), to: try ItemPath(parent), name: name, options: UploadOptions())
        }
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nc-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("refreshTree: an unchanged tree costs one request; a deep change lists only the folders on its way")
    func refreshTree() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (_, folder) = try await cloud.scratch()
        let counting = CountingTransport(AsyncHTTPClientTransport.shared)
        let provider = try await cloud.provider(folder: folder, transport: counting)
        #expect(provider.capabilities.features.contains(.recursiveETags))
        try await Self.makeTree(provider)
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try CacheStore(directory: directory)
        let cached = CachedProvider(wrapping: provider, store: store)

        #expect(try await cached.refreshTree().foldersListed == 5)
        let before = counting.total
        #expect(try await cached.refreshTree() == TreeRefresh(foldersListed: 0, foldersUnchanged: 1, itemsChanged: 0))
        #expect(counting.total == before + 1)

        _ = try await provider.upload(
            DataSource(string: "a longer text"), to: "/x/y/z", name: "f.txt", options: UploadOptions(conflict: .overwrite))
        let third = try await cached.refreshTree()
        #expect(third.foldersListed == 4, "\(third)")
        #expect(third.foldersUnchanged == 1, "\(third)")
        #expect(third.itemsChanged >= 4, "\(third)")
        #expect(try await store.item(at: "/x/y/z/f.txt", account: cached.account)?.item.size == 13)

        let offline = CachedProvider(wrapping: provider, store: store, policy: .cacheOnly)
        #expect(try await offline.listAll("/p").map(\.name) == ["g.txt"])
        #expect(try await offline.listAll("/x/y/z").map(\.name) == ["f.txt"])
    }

    @Test("strata cache refresh: the second run of an unchanged tree lists nothing")
    func cliRefresh() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (provider, folder) = try await cloud.scratch()
        try await Self.makeTree(provider)
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = cloud.server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "nextcloud://").trimmingSuffix("/")
        let arguments = ["cache", "refresh", "\(base)/\(folder)", "--cache", directory.path, "-u", LoopbackNextcloud.user, "--json"]

        let first = try await CLITests.run(arguments)
        #expect(first.status == 0, "\(first.error)")
        let firstReport = try JSONDecoder().decode(TreeRefresh.self, from: first.output)
        #expect(firstReport.foldersListed == 5)
        let second = try await CLITests.run(arguments)
        #expect(second.status == 0, "\(second.error)")
        #expect(try JSONDecoder().decode(TreeRefresh.self, from: second.output) == TreeRefresh(foldersListed: 0, foldersUnchanged: 1))

        let offline = try await CLITests.run(["ls", "\(base)/\(folder)/x/y/z", "--offline", "--cache", directory.path, "-u", LoopbackNextcloud.user])
        #expect(offline.status == 0, "\(offline.error)")
        #expect(String(decoding: offline.output, as: UTF8.self).contains("f.txt"))
    }
}

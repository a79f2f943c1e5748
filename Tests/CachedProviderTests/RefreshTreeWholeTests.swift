import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderConformance
import ProviderTesting
import SharedCache
import Testing

/// A provider over `base` that answers `listTree` (with `base`'s own listings) and counts the
/// folders listed one by one through it.
private final class WholeTrees: StorageProvider, @unchecked Sendable {
    let base: any StorageProvider
    let listed = NIOLockedValueBox<[ItemPath]>([])
    init(_ base: any StorageProvider) { self.base = base }

    var capabilities: Capabilities { base.capabilities }
    var account: ProviderAccount { base.account }
    var pageLimits: PageLimits { base.pageLimits }
    func item(at path: ItemPath) async throws -> Item { try await base.item(at: path) }
    func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        listed.withLockedValue { $0.append(folder) }
        return try await base.list(folder, page: page)
    }
    func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        try await base.download(path, to: sink, options: options)
    }
    func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        try await base.upload(source, to: folder, name: name, options: options)
    }
    func createFolder(named name: String, in parent: ItemPath) async throws -> Item { try await base.createFolder(named: name, in: parent) }
    func delete(_ path: ItemPath) async throws { try await base.delete(path) }
    func listTree(_ folder: ItemPath, fields: ItemFields, maxEntries: Int) async throws -> TreeListing? {
        var folders: [ItemPath: FolderListing] = [:]
        var pending = [folder]
        while let next = pending.popLast() {
            let listing = try await base.listing(next, fields: fields)
            folders[next] = listing
            pending += listing.items.filter(\.isFolder).map(\.path)
        }
        return TreeListing(root: folder, folders: folders)
    }
}

@Suite("refreshTree over a provider that lists whole trees")
struct RefreshTreeWholeTests {
    @Test("without recursive etags, refreshTree takes every folder from the one tree listing and lists none one by one")
    func wholeTree() async throws {
        var capabilities = InMemoryProvider.fullCapabilities
        capabilities.features.remove(.recursiveETags)
        let base = InMemoryProvider(transport: InMemoryServer(), capabilities: capabilities)
        for (name, parent) in [("x", "/"), ("y", "/x"), ("p", "/")] { _ = try await base.createFolder(named: name, in: try ItemPath(parent)) }
        for (name, parent) in [("f.txt", "/x/y"), ("g.txt", "/p")] {
            _ = try await base.upload(DataSource(string: name), to: try ItemPath(parent), name: name, options: UploadOptions())
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cached-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try CacheStore(directory: directory)
        let front = WholeTrees(base)
        let cached = CachedProvider(wrapping: front, store: store, policy: .networkFirst)
        let refresh = try await cached.refreshTree()
        #expect(refresh.foldersListed == 4)
        #expect(front.listed.withLockedValue { $0 }.isEmpty, "\(front.listed.withLockedValue { $0 })")
        let offline = CachedProvider(wrapping: front, store: store, policy: .cacheOnly)
        #expect(try await offline.listAll("/x/y").map(\.name) == ["f.txt"])
    }
}

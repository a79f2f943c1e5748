import Foundation
import LocalProvider
import ProviderAPI
import Testing
import TransferEngine

/// A source that holds one folder `d` in every folder, forever: a hostile server's endless tree.
private struct EndlessTree: ForwardingProvider {
    let base: any StorageProvider
    /// Files in every folder besides the next folder.
    var files = 0

    /// `nil`: a location of its own server; else unknown, so that the overlap probe walks it.
    var location: TreeLocation? = TreeLocation(server: ServerIdentity(family: "endless", host: "endless.invalid"), path: [String]())

    var account: ProviderAccount { ProviderAccount(kind: "endless", server: "endless.invalid") }

    func location(of path: ItemPath) async throws -> TreeLocation {
        guard let location else { return .unknown }
        return TreeLocation(server: location.server, path: path.segments)
    }

    func item(at path: ItemPath) async throws -> Item { Item(path: path, kind: .folder) }

    func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        var items = [Item(path: try folder.appending("d"), kind: .folder)]
        for index in 0..<files { items.append(Item(path: try folder.appending("f\(index)"), kind: .file, size: 1)) }
        return ItemPage(items: items)
    }
}

@Suite("Tree limits")
struct TreeLimitsTests {
    @Test("an endless tree stops at the depth limit while planning: invalidResponse, nothing written")
    func endlessTreeStopsAtDepth() async throws {
        let destination = try LocalTree()
        let source = EndlessTree(base: destination.provider)
        var options = TransferManager.Options()
        options.treeLimits = TreeLimits(maxDepth: 300)
        for mode in [TransferMode.copy, .sync] {
            let error = await #expect(throws: ProviderError.self) {
                try await TransferManager(options: options).run(mode, from: TransferEndpoint(source), to: TransferEndpoint(destination.provider, at: "/out"))
            }
            #expect(error?.code == .invalidResponse)
            #expect(error?.message?.contains("300 levels") == true, "\(String(describing: error))")
        }
        let checkError = await #expect(throws: ProviderError.self) {
            try await TransferManager(options: options).check(TransferEndpoint(source), against: destination.endpoint)
        }
        #expect(checkError?.code == .invalidResponse)
        #expect(try destination.listing().isEmpty, "nothing was created")
    }

    @Test("an endless source whose location is unknown stops the overlap probe's walk at the depth limit, not the machine")
    func endlessTreeStopsTheProbe() async throws {
        let destination = try LocalTree()
        var source = EndlessTree(base: destination.provider)
        source.location = nil
        var options = TransferManager.Options()
        options.treeLimits = TreeLimits(maxDepth: 200)
        let error = await #expect(throws: ProviderError.self) {
            try await TransferManager(options: options).sync(from: TransferEndpoint(source), to: TransferEndpoint(destination.provider, at: "/out"))
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message?.contains("200 levels") == true, "\(String(describing: error))")
        #expect(try destination.listing().isEmpty, "no marker left, nothing written")
    }

    @Test("a tree with more entries than the limit is refused while planning")
    func entriesLimit() async throws {
        let destination = try LocalTree()
        let source = EndlessTree(base: destination.provider, files: 20)
        var options = TransferManager.Options()
        options.treeLimits = TreeLimits(maxDepth: 1_000, maxEntries: 500)
        let error = await #expect(throws: ProviderError.self) {
            try await TransferManager(options: options).copy(from: TransferEndpoint(source), to: TransferEndpoint(destination.provider, at: "/out"))
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message?.contains("500 entries") == true, "\(String(describing: error))")
        #expect(try destination.listing().isEmpty)
    }

    @Test("a local tree 1,500 folders deep copies, checks the same and syncs again with nothing to do")
    func deepTreeRoundTrip() async throws {
        let source = try LocalTree()
        let destination = try LocalTree()
        // Made with relative mkdir calls: the path is far past PATH_MAX.
        let depth = 1_500
        var folder = try LocalFolderChain(root: source.url)
        for _ in 0..<depth { try folder.descend("d") }
        try folder.write("deep.txt", Data("bottom".utf8))
        let manager = TransferManager()
        let report = try await manager.copy(from: source.endpoint, to: destination.endpoint)
        #expect(report.succeeded)
        #expect(report.filesCopied == 1)
        #expect(report.foldersCreated == depth)
        let check = try await manager.check(source.endpoint, against: destination.endpoint)
        #expect(check.missing.isEmpty && check.extra.isEmpty && check.differing.isEmpty)
        #expect(check.matching == 1)
        let again = try await manager.sync(from: source.endpoint, to: destination.endpoint)
        #expect(again.succeeded && again.filesCopied == 0 && again.deleted == 0 && again.foldersCreated == 0)
        let deepest = try ItemPath(segments: Array(repeating: "d", count: depth) + ["deep.txt"])
        #expect(try await destination.provider.item(at: deepest).size == 6)
    }
}

/// Walks down a local tree one folder at a time by descriptor, to make trees deeper than a path can name.
private struct LocalFolderChain {
    private var descriptor: Int32

    init(root: URL) throws {
        descriptor = open(root.path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { throw ProviderError(.notFound, "cannot open \(root.path)") }
    }

    mutating func descend(_ name: String) throws {
        guard mkdirat(descriptor, name, 0o755) == 0 else { throw ProviderError(.server, "mkdirat failed: \(errno)") }
        let next = openat(descriptor, name, O_RDONLY | O_DIRECTORY)
        guard next >= 0 else { throw ProviderError(.server, "openat failed: \(errno)") }
        close(descriptor)
        descriptor = next
    }

    func write(_ name: String, _ data: Data) throws {
        let fd = openat(descriptor, name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw ProviderError(.server, "openat failed: \(errno)") }
        defer { close(fd) }
        _ = data.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        close(descriptor)
    }
}

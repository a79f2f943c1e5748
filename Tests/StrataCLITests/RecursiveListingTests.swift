import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import StrataTestSupport
import Testing
import TransferEngine

@testable import StrataCLI

/// A tree in memory: `a.txt`, `sub/c.txt`, `sub/deep/d.txt`, `empty/`; it counts the folders
/// listed one by one and answers `listTree` when `wholeTrees`.
private struct MemoryTree: StubProvider {
    let wholeTrees: Bool
    let listed = NIOLockedValueBox<[ItemPath]>([])
    var capabilities: Capabilities { Capabilities(features: [.paging]) }
    var account: ProviderAccount { ProviderAccount(kind: "memory", server: "memory") }

    static let children: [ItemPath: [Item]] = {
        func file(_ path: ItemPath) -> Item { Item(path: path, kind: .file, size: 1) }
        func folder(_ path: ItemPath) -> Item { Item(path: path, kind: .folder) }
        return [
            "/": [file("/a.txt"), folder("/empty"), folder("/sub")],
            "/sub": [file("/sub/c.txt"), folder("/sub/deep")],
            "/sub/deep": [file("/sub/deep/d.txt")],
            "/empty": [],
        ]
    }()

    func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        listed.withLockedValue { $0.append(folder) }
        return ItemPage(items: Self.children[folder] ?? [])
    }

    func listTree(_ folder: ItemPath, fields: ItemFields, maxEntries: Int) async throws -> TreeListing? {
        guard wholeTrees else { return nil }
        return TreeListing(root: folder, folders: Self.children.mapValues { FolderListing(items: $0, completeness: .ended) })
    }
}

@Suite("strata ls -R")
struct RecursiveListingTests {
    static let expected = ["a.txt", "empty/", "sub/", "sub/c.txt", "sub/deep/", "sub/deep/d.txt"]

    @Test("prints every entry below the folder, relative, folders with a slash: from the whole tree without listing a folder, or folder by folder", arguments: [true, false])
    func lines(wholeTrees: Bool) async throws {
        let provider = MemoryTree(wholeTrees: wholeTrees)
        var lines: [String] = []
        try await RecursiveListing.print(.root, from: provider, checkers: 2, limits: .standard) { lines.append($0) }
        #expect(lines == Self.expected)
        #expect(provider.listed.withLockedValue { $0.count } == (wholeTrees ? 0 : 4))
    }

    @Test("the tree limits stop the walk: too deep, or too many entries")
    func limits() async throws {
        let provider = MemoryTree(wholeTrees: false)
        await #expect(throws: ProviderError.self) {
            try await RecursiveListing.print(.root, from: provider, checkers: 2, limits: TreeLimits(maxDepth: 2, maxEntries: 100)) { _ in }
        }
        await #expect(throws: ProviderError.self) {
            try await RecursiveListing.print(.root, from: provider, checkers: 2, limits: TreeLimits(maxDepth: 10, maxEntries: 4)) { _ in }
        }
    }
}

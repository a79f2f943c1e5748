import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import Testing
import TransferEngine

/// The planner takes each folder's listing from a whole-tree listing where a side offers one, and
/// deletes nothing on the strength of it.
@Suite("transfers planned from whole-tree listings")
struct TreeListingPlanTests {
    /// A provider that answers `listTree` with the tree its Depth-1 listings give, but for the
    /// folders of `omitting`, answered empty and complete (a server that proves right, then answers
    /// short); it counts the folders listed one by one.
    final class TreeAnswering: ForwardingProvider, @unchecked Sendable {
        let base: any StorageProvider
        let omitting: Set<ItemPath>
        private let listedBox = NIOLockedValueBox<[ItemPath]>([])
        /// The folders listed one by one (`list`), in order.
        var listed: [ItemPath] { listedBox.withLockedValue { $0 } }

        init(base: any StorageProvider, omitting: Set<ItemPath> = []) {
            self.base = base
            self.omitting = omitting
        }

        func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
            listedBox.withLockedValue { $0.append(folder) }
            return try await base.list(folder, page: page)
        }

        func listTree(_ folder: ItemPath, fields: ItemFields, maxEntries: Int) async throws -> TreeListing? {
            var folders: [ItemPath: FolderListing] = [:]
            var pending = [folder]
            while let next = pending.popLast() {
                let listing = try await base.listing(next, fields: fields)
                folders[next] = omitting.contains(next) ? FolderListing(items: [], completeness: .ended) : listing
                pending += folders[next]?.items.filter(\.isFolder).map(\.path) ?? []
            }
            return TreeListing(root: folder, folders: folders)
        }
    }

    @Test("a copy from and to sides that list whole trees lists no folder one by one, and copies everything")
    func copyFromTrees() async throws {
        let source = try LocalTree()
        try source.fillSample()
        let destination = try LocalTree()
        let from = TreeAnswering(base: source.provider)
        let report = try await TransferManager(options: .testing()).copy(from: TransferEndpoint(from), to: destination.endpoint)
        #expect(report.succeeded)
        #expect(from.listed.isEmpty, "\(from.listed)")
        #expect(try destination.listing() == source.listing())
        // Again, both sides from their trees: nothing listed one by one, nothing to copy.
        let to = TreeAnswering(base: destination.provider)
        let again = try await TransferManager(options: .testing()).copy(from: TransferEndpoint(from), to: TransferEndpoint(to))
        #expect(again.succeeded)
        #expect(from.listed.isEmpty && to.listed.isEmpty, "\(from.listed) \(to.listed)")
        #expect(!again.plan.actions.contains { $0.kind == .copyFile })
    }

    @Test("a sync whose source tree answer leaves out a folder's contents deletes none of the destination's copies of them")
    func syncFromShortTree() async throws {
        let source = try LocalTree()
        try source.fillSample()
        let destination = try LocalTree()
        _ = try await TransferManager(options: .testing()).copy(from: source.endpoint, to: destination.endpoint)
        let before = try destination.listing()
        let lying = TreeAnswering(base: source.provider, omitting: ["/docs", "/docs/deep/er"])
        let report = try await TransferManager(options: .testing()).sync(from: TransferEndpoint(lying), to: destination.endpoint)
        #expect(report.succeeded)
        #expect(report.deleted == 0)
        #expect(!report.plan.actions.contains { $0.kind == .delete })
        #expect(try destination.listing() == before)
        // The folders whose plan would have deleted were listed again, one by one.
        #expect(lying.listed.contains("/docs"), "\(lying.listed)")
    }
}

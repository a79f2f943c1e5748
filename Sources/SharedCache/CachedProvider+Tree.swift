import Foundation
import ProviderAPI
import TransferEngine

extension CachedProvider {
    /// Brings the cached tree under `folder` up to date, fetching only what changed, and says what it did.
    ///
    /// - With `Capabilities.Features.recursiveETags` (ownCloud, Nextcloud): a folder whose
    ///   etag equals the one its cached listing was read at is unchanged with everything below
    ///   it, so an unchanged tree costs one small request; a changed folder is listed again and
    ///   only its child folders whose etag moved are descended into.
    /// - Without: every folder is listed again, but only children that changed are rewritten;
    ///   where the server lists whole trees in one request (`StorageProvider.listTree`), the
    ///   folders that answer holds are not asked one by one.
    ///
    /// Up to `concurrency` folders are listed at once (like rclone's checkers). Folders deeper
    /// than `maxDepth` (1: `folder`'s children only) are left alone.
    @discardableResult
    package func refreshTree(_ folder: ItemPath = .root, maxDepth: Int = .max, concurrency: Int = 4) async throws -> TreeRefresh {
        var report = TreeRefresh()
        let recursive = base.capabilities.features.contains(.recursiveETags)
        // A child folder carries the etag its parent's listing gave it, so it is not asked again.
        var pending: [(folder: ItemPath, depth: Int, etag: String?)] = [(folder, 1, nil)]
        let limit = max(1, concurrency)
        // Recursive etags already make an unchanged tree one request: a whole-tree listing would
        // read everything. Elsewhere one request may bring every folder's listing.
        var tree = recursive ? nil : try? await base.listTree(folder, fields: .all, maxEntries: TreeLimits.wholeTreeEntries)
        try await withThrowingTaskGroup(of: (depth: Int, answer: (items: [Item], listed: Bool, changed: Int, completeness: ListingCompleteness)).self) { group in
            var running = 0
            func launch() {
                while running < limit, let next = pending.popLast() {
                    // Taken out of the tree as it is used: the tree holds only what is still to come.
                    let given = tree?.take(next.folder)
                    group.addTask {
                        (next.depth, try await fetchListingReporting(next.folder, knownETag: next.etag, cachedItems: false, given: given))
                    }
                    running += 1
                }
            }
            launch()
            while let (depth, answer) = try await group.next() {
                running -= 1
                defer { launch() }
                guard answer.listed else {
                    report.foldersUnchanged += 1
                    continue
                }
                report.foldersListed += 1
                report.itemsChanged += answer.changed
                guard depth < maxDepth else { continue }
                for child in answer.items where child.kind == .folder {
                    pending.append((child.path, depth + 1, recursive ? child.etag : nil))
                }
            }
        }
        return report
    }
}

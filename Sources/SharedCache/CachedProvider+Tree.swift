import Foundation
import ProviderAPI

extension CachedProvider {
    /// Brings the cached tree under `folder` up to date, fetching only what changed, and says what it did.
    ///
    /// - With ``Capabilities/Features/recursiveETags`` (ownCloud, Nextcloud): a folder whose
    ///   etag equals the one its cached listing was read at is unchanged with everything below
    ///   it, so an unchanged tree costs one small request; a changed folder is listed again and
    ///   only its child folders whose etag moved are descended into.
    /// - Without: every folder is listed again, but only children that changed are rewritten.
    ///
    /// Folders deeper than `maxDepth` (1: `folder`'s children only) are left alone.
    @discardableResult
    public func refreshTree(_ folder: ItemPath = .root, maxDepth: Int = .max) async throws -> TreeRefresh {
        var report = TreeRefresh()
        let recursive = base.capabilities.features.contains(.recursiveETags)
        var pending: [(folder: ItemPath, depth: Int)] = [(folder, 1)]
        while let next = pending.popLast() {
            try Task.checkCancellation()
            let answer = try await fetchListingReporting(next.folder)
            guard answer.listed else {
                report.foldersUnchanged += 1
                continue
            }
            report.foldersListed += 1
            report.itemsChanged += answer.changed
            guard next.depth < maxDepth else { continue }
            for child in answer.items where child.kind == .folder {
                if recursive, let etag = child.etag, let cached = try? store.listing(of: child.path, account: account),
                    cached.isComplete, cached.changeToken == etag
                {
                    _ = try? store.touchListing(of: child.path, account: account)
                    report.foldersUnchanged += 1
                    continue
                }
                pending.append((child.path, next.depth + 1))
            }
        }
        return report
    }
}

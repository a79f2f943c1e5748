import ProviderAPI

/// Counts what a sync's plan would delete (``DeletionCount``): lists every folder the plan deletes
/// on the destination, down to its last file, and counts the destination's files the plan saw.
///
/// Run after planning and before anything changes, so that the deletion limits hold the sync to
/// the files the user would lose rather than to the plan's top-level items. A listing that fails
/// fails the count: a limit that cannot be checked does not let the sync go on.
struct DeletionCensus: Sendable {
    let provider: any StorageProvider
    let pageSize: Int?
    /// Folders listed at once.
    let concurrency: Int
    /// How deep and how large the doomed trees may be: an endless one stops the count.
    var limits = TreeLimits.standard

    func count(_ plan: TransferPlan) async throws -> DeletionCount {
        var count = DeletionCount(destinationFiles: plan.filesInUnchangedFolders)
        var level: [ItemPath] = []
        for action in plan.actions {
            switch action.kind {
            case .skip where !action.isFolder: count.destinationFiles += 1
            case .copyFile where action.reason == .differs: count.destinationFiles += 1
            case .delete where action.isFolder:
                count.folders += 1
                level.append(action.destination)
            case .delete:
                count.files += 1
                count.bytes += max(0, action.size ?? 0)
            default: break
            }
        }
        var walk = limits.walk(below: .root)
        while !level.isEmpty {
            if Task.isCancelled { throw ProviderError(.cancelled, "cancelled while counting the deletions") }
            try walk.descend()
            var next: [ItemPath] = []
            for items in try await listAll(level) {
                try walk.add(entries: items.count)
                for item in items {
                    if item.isFolder {
                        count.folders += 1
                        next.append(item.path)
                    } else {
                        count.files += 1
                        count.bytes += max(0, item.size ?? 0)
                    }
                }
            }
            level = next
        }
        count.destinationFiles += count.files
        return count
    }

    /// The listings of `folders`, at most ``concurrency`` at once, in their order.
    private func listAll(_ folders: [ItemPath]) async throws -> [[Item]] {
        let (provider, pageSize) = (self.provider, self.pageSize)
        return try await concurrentMap(folders, limit: concurrency) { try await provider.listAll($0, pageSize: pageSize, fields: []) }
    }
}

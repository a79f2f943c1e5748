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
        var depth = 0
        var entries = 0
        while !level.isEmpty {
            if Task.isCancelled { throw ProviderError(.cancelled, "cancelled while counting the deletions") }
            depth += 1
            try limits.check(depth: depth, below: .root)
            var next: [ItemPath] = []
            for items in try await listAll(level) {
                entries += items.count
                try limits.check(entries: entries, below: .root)
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

    /// The listings of `folders`, at most ``concurrency`` at once.
    private func listAll(_ folders: [ItemPath]) async throws -> [[Item]] {
        let provider = self.provider
        let pageSize = self.pageSize
        return try await withThrowingTaskGroup(of: (Int, [Item]).self) { group in
            var results = [[Item]](repeating: [], count: folders.count)
            var started = 0
            while started < min(max(1, concurrency), folders.count) {
                let (index, folder) = (started, folders[started])
                group.addTask { (index, try await provider.listAll(folder, pageSize: pageSize, fields: [])) }
                started += 1
            }
            while let (index, items) = try await group.next() {
                results[index] = items
                if started < folders.count {
                    let (index, folder) = (started, folders[started])
                    group.addTask { (index, try await provider.listAll(folder, pageSize: pageSize, fields: [])) }
                    started += 1
                }
            }
            return results
        }
    }
}

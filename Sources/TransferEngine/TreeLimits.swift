import ProviderAPI

/// Ceilings on the trees a copy, sync or check walks, so that a server that answers with an
/// endless tree (each folder holding another, or ever more entries) cannot keep a job growing
/// until the machine runs out of memory.
///
/// Past a limit the job stops while planning, before anything is written or deleted, with
/// `ProviderError.Code.invalidResponse` naming the limit. The defaults are far above real trees;
/// raise them for a larger one (`strata copy --max-depth 50000 --max-entries 20000000`).
///
/// Unlike rclone's `--max-depth`, which copies only the levels above the depth, the depth here is
/// a ceiling: a deeper tree is refused whole, never transferred in part.
package struct TreeLimits: Sendable, Hashable {
    /// The most levels of folders below the job's root [20,000].
    package var maxDepth: Int
    /// The most entries listed on both sides together, over the whole walk [5,000,000].
    package var maxEntries: Int

    /// Creates limits; values below 1 are taken as 1.
    package init(maxDepth: Int = 20_000, maxEntries: Int = 5_000_000) {
        self.maxDepth = max(1, maxDepth)
        self.maxEntries = max(1, maxEntries)
    }

    /// The defaults: 20,000 levels, 5,000,000 entries.
    package static let standard = TreeLimits()

    /// The most entries a whole-tree listing (`StorageProvider.listTree`) may bring, held in
    /// memory whole, before a walk lists folder by folder instead [250,000].
    package static let wholeTreeEntries = 250_000

    /// ``wholeTreeEntries``, or ``maxEntries`` where that is lower: the `maxEntries` a walk held to
    /// these limits asks a whole-tree listing for.
    package var wholeTreeLimit: Int { min(Self.wholeTreeEntries, maxEntries) }

    /// One walk of a tree below `root` held to these limits: the planner's, the overlap probe's
    /// and the deletion census's.
    package func walk(below root: ItemPath) -> Walk { Walk(limits: self, root: root) }

    /// The levels and entries one walk has reached.
    package struct Walk {
        let limits: TreeLimits
        /// Where the walk starts, as errors name it.
        let root: ItemPath
        private(set) var depth = 0
        private(set) var entries = 0

        init(limits: TreeLimits, root: ItemPath) {
            self.limits = limits
            self.root = root
        }

        /// Goes one level down; throws when that passes ``TreeLimits/maxDepth``.
        package mutating func descend() throws {
            depth += 1
            guard depth > limits.maxDepth else { return }
            throw ProviderError(
                .invalidResponse,
                "the tree at \(root) goes deeper than \(limits.maxDepth) levels (the maxDepth limit): nothing was changed")
        }

        /// Counts `count` more entries listed; throws when they pass ``TreeLimits/maxEntries``.
        package mutating func add(entries count: Int) throws {
            entries += count
            guard entries > limits.maxEntries else { return }
            throw ProviderError(
                .invalidResponse,
                "the trees at \(root) hold more than \(limits.maxEntries) entries (the maxEntries limit): nothing was changed")
        }
    }
}

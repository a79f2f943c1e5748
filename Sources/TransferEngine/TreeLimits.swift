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
public struct TreeLimits: Sendable, Hashable {
    /// The most levels of folders below the job's root [20,000].
    public var maxDepth: Int
    /// The most entries listed on both sides together, over the whole walk [5,000,000].
    public var maxEntries: Int

    /// Creates limits; values below 1 are taken as 1.
    public init(maxDepth: Int = 20_000, maxEntries: Int = 5_000_000) {
        self.maxDepth = max(1, maxDepth)
        self.maxEntries = max(1, maxEntries)
    }

    /// The defaults: 20,000 levels, 5,000,000 entries.
    public static let standard = TreeLimits()

    /// Throws when a walk reaching `depth` levels below `root` passes ``maxDepth``.
    func check(depth: Int, below root: ItemPath) throws {
        guard depth > maxDepth else { return }
        throw ProviderError(
            .invalidResponse, "the tree at \(root) goes deeper than \(maxDepth) levels (the maxDepth limit): nothing was changed")
    }

    /// Throws when `entries` listed below `root` pass ``maxEntries``.
    func check(entries: Int, below root: ItemPath) throws {
        guard entries > maxEntries else { return }
        throw ProviderError(
            .invalidResponse, "the trees at \(root) hold more than \(maxEntries) entries (the maxEntries limit): nothing was changed")
    }
}

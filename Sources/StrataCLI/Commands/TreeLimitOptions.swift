import ArgumentParser
import TransferEngine

/// How deep and how large the trees of `copy`, `sync` and `check` may be.
struct TreeLimitOptions: ParsableArguments {
    @Option(
        help: """
            The most levels of folders below the roots (default 20000). A deeper tree is refused while \
            planning, before anything changes: a ceiling against endless trees, not a filter.
            """)
    var maxDepth: Int = TreeLimits.standard.maxDepth
    @Option(help: "The most entries listed on both sides together (default 5000000); a larger tree is refused while planning.")
    var maxEntries: Int = TreeLimits.standard.maxEntries

    func validate() throws {
        guard maxDepth >= 1 else { throw ValidationError("--max-depth takes a number of 1 or more") }
        guard maxEntries >= 1 else { throw ValidationError("--max-entries takes a number of 1 or more") }
    }

    /// The limits these options say.
    var limits: TreeLimits { TreeLimits(maxDepth: maxDepth, maxEntries: maxEntries) }
}

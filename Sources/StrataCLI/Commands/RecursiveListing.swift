import Foundation
import ProviderAPI
import TransferEngine

/// `strata ls -R`: every entry below a folder, one per line, its path relative to the folder
/// (folders end with `/`), like `rclone lsf -R`. The whole tree comes from one request where the
/// server offers it (`StorageProvider.listTree`); otherwise folders are listed level by level,
/// `checkers` at once. The tree limits stop an endless tree.
enum RecursiveListing {
    /// Prints (through `write`, a line at a time) every entry below `root`.
    static func print(
        _ root: ItemPath, from provider: any StorageProvider, checkers: Int, limits: TreeLimits,
        write: (String) -> Void = { Swift.print($0) }
    ) async throws {
        var tree = try? await provider.listTree(root, fields: [], maxEntries: limits.wholeTreeLimit)
        var level = [root]
        var walk = limits.walk(below: root)
        while !level.isEmpty {
            try walk.descend()
            // Listings from the tree are taken as the level reaches them; the others are listed, `checkers` at once.
            var listings: [ItemPath: [Item]] = [:]
            var missing: [ItemPath] = []
            for folder in level {
                if let listing = tree?.take(folder) { listings[folder] = listing.items } else { missing.append(folder) }
            }
            let listed = try await concurrentMap(missing, limit: checkers) { try await provider.listAll($0, fields: []) }
            for (folder, items) in zip(missing, listed) { listings[folder] = items }
            var next: [ItemPath] = []
            for folder in level {
                let items = (listings[folder] ?? []).sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
                try walk.add(entries: items.count)
                for item in items {
                    let relative = item.path.relative(to: root)?.segments.map(TerminalText.escape).joined(separator: "/") ?? TerminalText.escape(item.name)
                    write(item.isFolder ? relative + "/" : relative)
                    if item.isFolder { next.append(item.path) }
                }
            }
            level = next
        }
    }
}

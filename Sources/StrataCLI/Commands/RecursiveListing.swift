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
        var tree = try? await provider.listTree(root, fields: [], maxEntries: min(250_000, limits.maxEntries))
        var level = [root]
        var depth = 0
        var entries = 0
        while !level.isEmpty {
            depth += 1
            guard depth <= limits.maxDepth else {
                throw ProviderError(.invalidResponse, "the tree at \(root) goes deeper than \(limits.maxDepth) levels (the maxDepth limit)")
            }
            // Listings from the tree are taken as the level reaches them; the others are listed, `checkers` at once.
            var listings: [ItemPath: [Item]] = [:]
            var missing: [ItemPath] = []
            for folder in level {
                if let listing = tree?.take(folder) { listings[folder] = listing.items } else { missing.append(folder) }
            }
            try await withThrowingTaskGroup(of: (ItemPath, [Item]).self) { group in
                var pending = missing[...]
                var running = 0
                while running < checkers, let next = pending.popFirst() {
                    group.addTask { (next, try await provider.listAll(next, fields: [])) }
                    running += 1
                }
                while let (folder, items) = try await group.next() {
                    listings[folder] = items
                    if let next = pending.popFirst() { group.addTask { (next, try await provider.listAll(next, fields: [])) } }
                }
            }
            var next: [ItemPath] = []
            for folder in level {
                let items = (listings[folder] ?? []).sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
                entries += items.count
                guard entries <= limits.maxEntries else {
                    throw ProviderError(.invalidResponse, "the tree at \(root) holds more than \(limits.maxEntries) entries (the maxEntries limit)")
                }
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

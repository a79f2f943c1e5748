import ArgumentParser
import Foundation
import ProviderAPI
import ProviderKit
import SharedCache

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls", abstract: "List a folder.",
        discussion: """
            Entries are printed page by page as they arrive, in the order the server sends them \
            (not sorted: sorting would need the whole listing in memory first), so memory stays flat \
            in folders of any size. --json prints one JSON array, written an element at a time; it is \
            closed only when the listing is complete. Names are printed with control characters \
            escaped (\\e, \\n, \\t, \\x7f, \\u{202e}, a backslash as \\\\); --json keeps them exact.
            A server whose pages repeat, or that never stops saying more pages follow, is stopped with \
            invalidResponse; -o maxPages=N and -o maxEntries=N lower the ceilings (100000 pages, \
            10000000 entries). With --cache the listing is read whole, to be kept complete in the cache.
            -R (--recursive) prints every entry below the folder, one per line, its path relative to the \
            folder (folders end with /), like rclone lsf -R: from one request where the server lists \
            whole trees (WebDAV's Depth: infinity, once proven), else --checkers folders at once; \
            --max-depth and --max-entries stop an endless tree.
            """)

    /// The page size when none is given: pages the server need not hold all at once.
    static let defaultPageSize = 1000

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The folder, e.g. webdav://host/dav/folder") var target: String
    @Option(help: "Fetch the listing in pages of this many entries (default 1000).") var pageSize: Int?
    @Flag(name: [.customShort("R"), .long], help: "List every entry below the folder, paths relative to it (folders end with /).")
    var recursive = false
    @Option(help: "With -R, how many folders are listed at once (default 8).") var checkers: Int = 8
    @OptionGroup var treeLimits: TreeLimitOptions

    func validate() throws {
        if let pageSize, pageSize < 1 { throw ValidationError("--page-size must be at least 1") }
        guard checkers >= 1 else { throw ValidationError("--checkers takes a number of 1 or more") }
        if recursive, global.json { throw ValidationError("-R prints paths, one per line: it does not take --json") }
    }

    func run() async throws {
        let (provider, path) = try await global.open(target)
        if recursive {
            try await RecursiveListing.print(path, from: provider, checkers: checkers, limits: treeLimits.limits)
            return
        }
        var output = Output.ItemStream(json: global.json)
        // A cached provider keeps a listing complete only when it is asked for all of it.
        let cached = global.cache != nil || global.offline
        // The plain listing shows no MIME type: the server need not look them up.
        try await Self.stream(
            path, from: provider, pageSize: pageSize ?? (cached ? nil : Self.defaultPageSize),
            fields: global.json ? .all : [], into: &output)
        output.finish()
    }

    /// Prints the listing of `folder` into `output` page by page, each page checked by a ``PageGuard``
    /// (``StorageProvider/forEachPage(of:request:_:)``).
    static func stream(
        _ folder: ItemPath, from provider: any StorageProvider, pageSize: Int?, fields: ItemFields, into output: inout Output.ItemStream
    ) async throws {
        // The next page is fetched while this one prints (one ahead where the provider can tell it).
        try await provider.forEachPage(of: folder, request: PageRequest(limit: pageSize, fields: fields)) { page in
            try output.append(page.items)
        }
    }
}

struct StatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stat", abstract: "Show an item's metadata.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The item.") var target: String

    func run() async throws {
        let (provider, path) = try await global.open(target)
        let item = try await provider.item(at: path)
        if global.json { try Output.json(item) } else { Output.describe(item) }
    }
}

struct MkdirCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mkdir", abstract: "Create a folder.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var journal: OfflineWriteOptions
    @Flag(name: .short, help: "Create missing parents too, and succeed if the folder exists.") var parents = false
    @Argument(help: "The folder to create.") var target: String

    func run() async throws {
        let (provider, path) = try await global.open(target, offlineWrites: journal.mode(global))
        guard !path.isRoot else { throw ValidationError("the root always exists") }
        let watch = try await JournalWatch.start(provider)
        var created: Item?
        if parents {
            var current = ItemPath.root
            let journaling = journal.mode(global) != .off
            for name in path.segments {
                let next = try current.appending(name)
                defer { current = next }
                let found: Item?
                do {
                    found = try await provider.lookUp(next)
                } catch where journaling && next != path && CachedProvider.isOffline(error) {
                    // Offline, an ancestor the cache does not know (above the folders browsed): the journal
                    // checks the parent of what it records.
                    continue
                }
                if let existing = found {
                    guard existing.isFolder else { throw ProviderError(.conflict, "\(next) is a file") }
                    created = existing
                } else {
                    created = try await provider.createFolder(named: name, in: current)
                }
            }
        } else {
            created = try await provider.createFolder(named: path.name, in: path.parent)
        }
        try await watch.finish(json: global.json)
        if global.json, let created { try Output.json(created) }
    }
}

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a file or a folder with its contents.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var journal: OfflineWriteOptions
    @Argument(help: "The item to delete.") var target: String

    func run() async throws {
        let (provider, path) = try await global.open(target, offlineWrites: journal.mode(global))
        let watch = try await JournalWatch.start(provider)
        try await provider.delete(path)
        let changes = try await watch.finish(json: global.json)
        // Nothing to print after a delete on the server; a journaled one says which entry holds it.
        if global.json, !changes.isEmpty { try Output.json(["journal": changes]) }
    }
}

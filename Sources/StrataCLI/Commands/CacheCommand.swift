import ArgumentParser
import Foundation
import ProviderAPI
import SharedCache

/// `strata cache stats|clear|refresh`: the offline cache's size, emptying it, and bringing a cached tree up to date.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache", abstract: "Show, clear or refresh the offline cache (--cache DIR, or the default one).",
        subcommands: [CacheStatsCommand.self, CacheClearCommand.self, CacheRefreshCommand.self])
}

struct CacheStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Items, listings and blobs in the cache.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let store = try await CommandCache.store(at: global.cacheFolder)
        let stats = try await store.stats()
        if global.json {
            try Output.json(stats)
        } else {
            Output.line("cache:    \(store.directory.path)")
            Output.line("accounts: \(stats.accounts)")
            Output.line("items:    \(stats.items)")
            Output.line("listings: \(stats.listings)")
            Output.line("blobs:    \(stats.blobs) (\(stats.blobBytes) bytes)")
        }
    }
}

struct CacheClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Empty the cache: metadata, blobs, transfer jobs, computed digests and upload checkpoints.",
        discussion: """
            A stopped copy, sync or upload then starts over instead of resuming. Pending offline writes \
            (the sync journal) are kept with their bytes: 'strata replay' sends them, \
            'strata resolve ID TARGET --drop' forgets one.
            """)

    @OptionGroup var global: GlobalOptions

    /// What `--json` prints.
    struct Report: Encodable {
        var cleared: String
        var pendingKept: Int
    }

    func run() async throws {
        let store = try await CommandCache.store(at: global.cacheFolder)
        let kept = try await store.clear()
        if global.json {
            try Output.json(Report(cleared: store.directory.path, pendingKept: kept))
            return
        }
        Output.line("cleared \(store.directory.path)")
        if kept > 0 {
            Output.line(
                "kept \(kept) pending offline write\(kept == 1 ? "" : "s") (see 'strata pending TARGET'; "
                    + "'strata replay TARGET' sends them, 'strata resolve ID TARGET --drop' forgets one)")
        }
    }
}

struct CacheRefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Bring the cached tree under a folder up to date, fetching only what changed.",
        discussion: """
            On servers whose folder etags cover their contents (ownCloud, Nextcloud) an unchanged \
            tree costs one request; elsewhere every folder is listed, but only changed entries are rewritten.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The folder, e.g. nextcloud://host/Documents") var target: String
    @Option(help: "How many levels of folders to refresh (1: the folder's own listing).") var depth: Int?
    @Option(help: "How many folders are listed at once (default 8, as rclone's --checkers).") var checkers: Int = 8

    func validate() throws {
        guard checkers >= 1 else { throw ValidationError("--checkers takes a number of 1 or more") }
    }

    func run() async throws {
        guard !global.offline else { throw ValidationError("refresh needs the network; drop --offline") }
        let (provider, path) = try await global.open(target)
        let cached: CachedProvider
        if let provider = provider as? CachedProvider {
            cached = provider
        } else {
            cached = CachedProvider(
                wrapping: provider, store: try await CommandCache.store(at: global.cacheFolder), logger: global.logger)
        }
        let report = try await cached.refreshTree(path, maxDepth: depth ?? .max, concurrency: checkers)
        if global.json {
            try Output.json(report)
        } else {
            Output.line("listed:    \(report.foldersListed) folders")
            Output.line("unchanged: \(report.foldersUnchanged) folders (by etag)")
            Output.line("rewritten: \(report.itemsChanged) entries")
        }
    }
}

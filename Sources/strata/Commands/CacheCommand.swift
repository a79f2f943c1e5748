import ArgumentParser
import Foundation
import SharedCache

/// `strata cache stats|clear`: the offline cache's size, and emptying it.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache", abstract: "Show or clear the offline cache (--cache DIR, or the default one).",
        subcommands: [CacheStatsCommand.self, CacheClearCommand.self])
}

struct CacheStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Items, listings and blobs in the cache.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let store = try CacheStore(directory: try global.cacheDirectory())
        let stats = try store.stats()
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
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Empty the cache: metadata and blobs.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let store = try CacheStore(directory: try global.cacheDirectory())
        try store.clear()
        try store.blobs.reset()
        Output.line("cleared \(store.directory.path)")
    }
}

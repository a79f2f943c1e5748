import ArgumentParser
import Foundation
import ProviderAPI
import SharedCache

/// Brings a cached tree up to date through ``CachedProvider/refreshTree(_:maxDepth:)`` and
/// checks how many entries changed.
struct RefreshBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh", abstract: "Re-check a cached tree against the server.")

    @OptionGroup var target: BenchTarget
    @Argument(help: "The folder at the top of the tree.") var url: String
    @Option(help: "The number of rewritten entries the refresh must report.") var expectChanged: Int?

    func run() async throws {
        guard target.cache != nil else { throw ValidationError("refresh needs --cache DIR") }
        var fill = target
        fill.fillCache = true
        let (provider, path) = try await fill.open(url)
        guard let cached = provider as? CachedProvider else { throw CheckFailed("no cache in front of the provider") }
        let report = try await cached.refreshTree(path)
        if let expectChanged, report.itemsChanged != expectChanged {
            throw CheckFailed("the refresh rewrote \(report.itemsChanged) entries, expected \(expectChanged)")
        }
        print("\(report.foldersListed) listed, \(report.foldersUnchanged) unchanged, \(report.itemsChanged) rewritten")
    }
}

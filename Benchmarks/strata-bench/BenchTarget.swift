import ArgumentParser
import Foundation
import NuxeoProvider
import ProviderAPI
import PydioProvider
import SharedCache
import WebDAVProvider

/// Options shared by every subcommand: how the provider is made.
struct BenchTarget: ParsableArguments {
    @Option(help: "Probe the server first, as `strata` does (default: declared capabilities, no probe).")
    var probe = false

    @Option(help: "Answer from this offline cache folder (cache-only), filled by an earlier run with --fill-cache.")
    var cache: String?

    @Flag(help: "With --cache: read through the network and fill the cache instead of answering from it.")
    var fillCache = false

    /// The provider and the path `target` names.
    func open(_ target: String) async throws -> (provider: any StorageProvider, path: ItemPath) {
        guard let url = URL(string: target), url.scheme != nil else { throw ValidationError("not a URL: \(target)") }
        let registry = ProviderRegistry()
        registry.register(WebDAVProviderFactory())
        registry.register(NuxeoProviderFactory())
        registry.register(PydioProviderFactory())
        let environment = ProcessInfo.processInfo.environment
        let user = url.user.flatMap { $0.removingPercentEncoding } ?? environment["STRATA_USER"]
        let credentials: Credentials = user.map { .basic(username: $0, password: environment["STRATA_PASSWORD"] ?? "") } ?? .none
        let (provider, path) = try await registry.provider(for: url, credentials: credentials, probe: probe)
        guard let cache else { return (provider, path) }
        let store = try await CacheStore.open(directory: URL(fileURLWithPath: cache, isDirectory: true))
        return (CachedProvider(wrapping: provider, store: store, policy: fillCache ? .networkFirst : .cacheOnly), path)
    }
}

/// A failed check: the work ran but its result is wrong.
struct CheckFailed: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

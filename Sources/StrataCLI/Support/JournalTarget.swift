import Foundation
import ProviderAPI
import SharedCache

extension ConnectionOptions {
    /// The target's provider behind the cache whose sync journal `pending`, `replay` and `resolve`
    /// work on: the cache of `--cache`, or the default one (as `--offline` writes use).
    ///
    /// `probe: false` makes the provider without asking the server, for what needs no network
    /// (listing the journal, dropping an entry).
    func journaled(_ target: String, probe: Bool) async throws -> CachedProvider {
        let (provider, _) = try await open(target, probe: probe)
        if let cached = provider as? CachedProvider { return cached }
        return CachedProvider(wrapping: provider, store: try await CommandCache.store(at: cacheFolder), logger: logger)
    }
}

import Foundation

/// Ceilings on how much one paged listing or search may bring, so that a server that always
/// says "there is another page" cannot keep a client busy and growing forever.
///
/// Every page loop of Strata (``StorageProvider/listAll(_:pageSize:fields:)``,
/// ``StorageProvider/children(of:pageSize:)``, the adapters' own paging and the `strata` tool)
/// checks its pages with a `PageGuard` under these limits. The defaults are far above any real
/// folder; lower them for a client that must fail sooner. Set them per provider with
/// ``ProviderConfiguration/pageLimits``, or with the `maxPages` and `maxEntries` options
/// (`-o maxPages=1000` on the command line), which the adapters' factories read (ProviderKit's
/// `PageLimits.applying(options:)`).
public struct PageLimits: Sendable, Hashable, Codable {
    /// The most pages one listing or search may take [100,000].
    public var maxPages: Int
    /// The most entries one listing or search may bring, over all its pages [10,000,000].
    public var maxEntries: Int

    /// Creates limits; values below 1 are taken as 1.
    public init(maxPages: Int = 100_000, maxEntries: Int = 10_000_000) {
        self.maxPages = max(1, maxPages)
        self.maxEntries = max(1, maxEntries)
    }

    /// The defaults: 100,000 pages, 10,000,000 entries.
    public static let standard = PageLimits()
}

import Foundation

/// Ceilings on how much one paged listing or search may bring, so that a server that always
/// says "there is another page" cannot keep a client busy and growing forever.
///
/// Every page loop of Strata (``StorageProvider/listAll(_:pageSize:fields:)``,
/// ``StorageProvider/children(of:pageSize:)``, the adapters' own paging and the `strata` tool)
/// checks its pages with a ``PageGuard`` under these limits. The defaults are far above any real
/// folder; lower them for a client that must fail sooner. Set them per provider with
/// ``ProviderConfiguration/pageLimits``, or with the `maxPages` and `maxEntries` options
/// (`-o maxPages=1000` on the command line).
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

    /// These limits with the `maxPages` and `maxEntries` options of `options` applied.
    ///
    /// - Throws: ``ProviderError/Code/invalidArgument`` when an option is not a whole number of at least 1.
    public func applying(options: [String: String]) throws -> PageLimits {
        var limits = self
        if let text = options["maxPages"] { limits.maxPages = try Self.count(text, name: "maxPages") }
        if let text = options["maxEntries"] { limits.maxEntries = try Self.count(text, name: "maxEntries") }
        return limits
    }

    private static func count(_ text: String, name: String) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 1 else {
            throw ProviderError(.invalidArgument, "the \(name) option must be a whole number of at least 1, not '\(text.prefix(40))'")
        }
        return value
    }
}

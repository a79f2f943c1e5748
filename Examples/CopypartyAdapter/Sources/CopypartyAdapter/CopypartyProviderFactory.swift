import Foundation
import ProviderAPI

/// Makes ``CopypartyProvider`` values for `copyparty://` (plain HTTP) and `copypartys://`
/// (HTTPS) URLs, or for `http`/`https` URLs given to it directly.
///
/// Register it with a `ProviderRegistry`, or give it to the command line:
///
/// ```swift
/// let registry = ProviderRegistry()
/// registry.register(CopypartyProviderFactory())
/// let (provider, path) = try await registry.provider(
///     for: URL(string: "copyparty://nas.local:3923/photos/2026/")!, credentials: .basic(username: "ann", password: secret))
/// ```
public struct CopypartyProviderFactory: ProviderFactory {
    /// A factory.
    public init() {}

    /// `copyparty`, the kind of saved remotes of this adapter.
    public var kind: String { "copyparty" }

    /// `copyparty` URLs reach the server over `http`, `copypartys` over `https`.
    public var schemes: [String: String] { ["copyparty": "http", "copypartys": "https"] }

    /// A provider rooted at the folder the configuration's URL names; nothing is sent.
    public func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
        try CopypartyProvider(configuration: configuration)
    }
}

import Foundation
import HTTPProviderKit
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

    /// Recognises a copyparty server for `strata detect`: its `?ls` answer is a JSON object
    /// naming the account's rights (`perms`) and the server's disk (`srvinf`), a signature more
    /// specific than the WebDAV the same server also speaks.
    public func probe(_ url: URL, context: ProbeContext) async -> ProbeResult? {
        guard let server = try? CopypartyServer(root: url, executor: context.executor()),
            let response = try? await server.executor.execute(TransportRequest(method: .GET, url: server.url(.root, folder: true, query: "ls"))),
            response.isSuccess, let body = try? await response.body.collect(upTo: 1 << 20),
            let answer = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any],
            answer["perms"] is [Any], answer["srvinf"] is String
        else { return nil }
        var components = URLComponents(url: server.root, resolvingAgainstBaseURL: false)
        components?.scheme = url.scheme?.lowercased() == "https" ? "copypartys" : "copyparty"
        return ProbeResult(kind: kind, confidence: 90, detail: "copyparty's JSON listing (?ls)", url: components?.url ?? url)
    }
}

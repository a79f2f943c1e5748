import Foundation
import ProviderAPI
import HTTPProviderKit

/// What a ``PydioProvider`` works with, resolved from its `ProviderConfiguration` (the URL) and
/// its ``PydioProvider/Configuration``.
///
/// The URL is `http(s)://host[:port]/<base path>/<workspace>/<root folder…>`, such as
/// `https://files.example.com/pydio/my-files/Reports`: the base path is the URL's first segment
/// unless ``PydioProvider/Configuration/basePath`` (the `basePath` option) says otherwise (`/` for
/// a server at the root), the workspace is named by id or slug. Options: `basePath`; `chunkSize`
/// (bytes per part of a partial upload, and the size above which a file goes in parts; 4 MiB by
/// default); `showRecycleBin` (`true` lists the recycle bin at the workspace root);
/// `indexesContent` (`true` when the workspace's search index holds the files' text, which
/// declares `Features.fullTextSearch`: the server does not say so in its registry, and a stock
/// "My Files" indexes names only); `maxPages` and `maxEntries` (the `PageLimits` of every page
/// loop, the provider's own paging included). Any other option name fails with
/// `ProviderError.Code.invalidArgument`.
public struct PydioProviderSettings: Sendable, Hashable {
    /// The server's base URL, with a trailing slash (`https://host/pydio/`).
    public var baseURL: URL
    /// The workspace id or slug.
    public var workspace: String
    /// The provider root inside the workspace, such as `/Reports` (`/` for the workspace root).
    public var rootPath: String
    /// Bytes per part of a partial upload.
    public var chunkSize: Int
    /// Whether listings of the workspace root include the recycle bin.
    public var showsRecycleBin: Bool
    /// Whether the workspace's search index holds file contents (the `indexesContent` option).
    public var indexesContent: Bool

    /// Reads the settings from `configuration`, its string options read as the factory reads them.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL without a workspace, or an option
    ///   that is malformed or unknown.
    public init(_ configuration: ProviderConfiguration) throws {
        let (common, pydio) = try PydioProvider.reading(configuration)
        try self.init(common, pydio: pydio)
    }

    /// Resolves the settings from the URL of `configuration` and from `pydio` (`configuration`'s
    /// string options are not read).
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL that is not http(s) or names no workspace.
    public init(_ configuration: ProviderConfiguration, pydio: PydioProvider.Configuration) throws {
        let url = configuration.url
        try URLChecks.requireValidPort(url)
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            throw ProviderError(.invalidArgument, "a Pydio URL is http(s)://host/pydio/workspace/path, not \(Redactor.redact(url: url))")
        }
        let segments = components.percentEncodedPath.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        let base = pydio.basePath.map { $0.split(separator: "/").map(String.init) } ?? Array(segments.prefix(1))
        guard segments.starts(with: base), segments.count > base.count else {
            throw ProviderError(.invalidArgument, "the Pydio URL names no workspace after /\(base.joined(separator: "/"))")
        }
        workspace = segments[base.count]
        rootPath = "/" + segments.dropFirst(base.count + 1).joined(separator: "/")
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        components.percentEncodedPath = "/" + base.map(PercentEncoding.formEncode).map { $0 + "/" }.joined()
        guard let baseURL = components.url else { throw ProviderError(.invalidArgument, "not a URL: \(Redactor.redact(url: url))") }
        self.baseURL = baseURL
        chunkSize = max(1024, pydio.chunkSize)
        showsRecycleBin = pydio.showsRecycleBin
        indexesContent = pydio.indexesContent
    }
}

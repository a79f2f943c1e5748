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
package struct PydioProviderSettings: Sendable, Hashable {
    /// The server's base URL, with a trailing slash (`https://host/pydio/`).
    package var baseURL: URL
    /// The workspace id or slug.
    package var workspace: String
    /// The provider root inside the workspace, such as `/Reports` (`/` for the workspace root).
    package var rootPath: String
    /// Bytes per part of a partial upload.
    package var chunkSize: Int
    /// Whether listings of the workspace root include the recycle bin.
    package var showsRecycleBin: Bool
    /// Whether the workspace's search index holds file contents (the `indexesContent` option).
    package var indexesContent: Bool

    /// Reads the settings from `configuration`, its string options read as the factory reads them.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL without a workspace, or an option
    ///   that is malformed or unknown.
    package init(_ configuration: ProviderConfiguration) throws {
        let (common, pydio) = try PydioProvider.reading(configuration)
        try self.init(common, pydio: pydio)
    }

    /// Resolves the settings from the URL of `configuration` and from `pydio` (`configuration`'s
    /// string options are not read).
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL that is not http(s), does not start
    ///   with the base path or names no workspace.
    package init(_ configuration: ProviderConfiguration, pydio: PydioProvider.Configuration) throws {
        let split = try ApplicationURL(
            configuration.url, applicationPath: pydio.basePath, expected: "a Pydio URL is http(s)://host/pydio/workspace/path")
        guard let workspace = split.remainder.first else {
            throw ProviderError(.invalidArgument, "the Pydio URL names no workspace after /\(split.applicationPath.joined(separator: "/"))")
        }
        self.workspace = workspace
        rootPath = "/" + split.remainder.dropFirst().joined(separator: "/")
        baseURL = try split.url(trailingSlash: true)
        chunkSize = max(1024, pydio.chunkSize)
        showsRecycleBin = pydio.showsRecycleBin
        indexesContent = pydio.indexesContent
    }
}

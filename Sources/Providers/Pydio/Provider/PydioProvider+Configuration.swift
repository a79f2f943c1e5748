import Foundation
import ProviderAPI
import ProviderKit

extension PydioProvider {
    /// How a ``PydioProvider`` reaches its workspace, beyond what every adapter gets in a
    /// `ProviderConfiguration` (URL, credentials, transport, retry, timeouts, page limits).
    ///
    /// Each property says its default and the string option that sets it (`-o name=value` on the
    /// command line, `ProviderConfiguration.options` through a `ProviderRegistry`): the
    /// ``PydioProviderFactory`` reads those once, with `init(reading:)`.
    ///
    /// ```swift
    /// var pydio = PydioProvider.Configuration()
    /// pydio.indexesContent = true
    /// let provider = try await PydioProvider.connect(ProviderConfiguration(url: url, credentials: credentials), pydio: pydio)
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// The server's base path, such as `/pydio` (`/` for a server at the root); `nil` takes the
        /// URL's first segment. Default `nil`; option `basePath`.
        public var basePath: String?
        /// Bytes per part of a partial upload, and the size above which a file goes in parts. At
        /// least 1024 (smaller values are taken as 1024). Default 4 MiB; option `chunkSize`.
        public var chunkSize: Int = 4 << 20
        /// Whether listings of the workspace root include the recycle bin. Default `false`; option
        /// `showRecycleBin` (`true` or `false`).
        public var showsRecycleBin = false
        /// Whether the workspace's search index holds the files' text, which declares
        /// `Capabilities.Features.fullTextSearch`: the server does not say so in its registry, and a stock
        /// "My Files" indexes names only. Default `false`; option `indexesContent` (`true` or `false`).
        public var indexesContent = false

        /// The defaults.
        public init() {}

        /// Reads the configuration from string options: `basePath`, `chunkSize`, `showRecycleBin`
        /// and `indexesContent`. Other names are left in `reader`.
        ///
        /// - Throws: `ProviderError.Code.invalidArgument` naming an option whose value is malformed.
        package init(reading reader: inout OptionReader) throws {
            basePath = reader.text("basePath")
            chunkSize = try reader.integer("chunkSize", minimum: 1024) ?? chunkSize
            showsRecycleBin = try reader.flag("showRecycleBin") ?? showsRecycleBin
            indexesContent = try reader.flag("indexesContent") ?? indexesContent
        }
    }

    /// The one reading of `configuration`'s string options: the typed configuration, and
    /// `configuration` with its page limits applied and no options left.
    ///
    /// - Throws: ``ProviderError/Code/invalidArgument`` for a malformed or unknown option.
    static func reading(_ configuration: ProviderConfiguration) throws -> (ProviderConfiguration, Configuration) {
        let (common, pydio) = try configuration.readingOptions(for: "pydio") { try Configuration(reading: &$0) }
        return (common, pydio)
    }
}

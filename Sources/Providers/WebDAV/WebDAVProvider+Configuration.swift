import Foundation
import ProviderAPI
import ProviderKit

extension WebDAVProvider {
    /// How a ``WebDAVProvider`` talks to its server, beyond what every adapter gets in a
    /// `ProviderConfiguration` (URL, credentials, transport, retry, timeouts, page limits).
    ///
    /// Plain RFC 4918 needs none of it: every setting here but ``auth`` (how a password is sent:
    /// Basic or HTTP Digest) is for the ownCloud/Nextcloud dialect.
    /// Each property says its default and the string option that sets it (`-o name=value` on the
    /// command line, `ProviderConfiguration.options` through a `ProviderRegistry`): the
    /// factories (``WebDAVProviderFactory``, ``OwnCloudProviderFactory``) read those once, with
    /// `init(reading:)`.
    ///
    /// ```swift
    /// var webdav = WebDAVProvider.Configuration()
    /// webdav.dialect = .nextcloud
    /// webdav.chunkSize = 4 << 20
    /// let provider = try await WebDAVProvider.connect(ProviderConfiguration(url: url, credentials: credentials), webdav: webdav)
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// The ownCloud/Nextcloud dialect to speak; `nil` speaks plain WebDAV to a `webdav` URL, and
        /// the factory's flavor (or what `status.php` says) to a `nextcloud`/`owncloud` URL. Default
        /// `nil`; option `dialect` (`nextcloud` or `owncloud`).
        public var dialect: WebDAVDialect.Flavor?
        /// The dialect's user, whose files are the DAV root; `nil` takes the one the URL names
        /// (`remote.php/dav/files/USER/`), then the credentials' user name, then asks the server.
        /// Default `nil`; option `user`.
        public var user: String?
        /// Bytes per chunk of a chunked upload (dialect), at least 1. Default 10 MiB; option `chunkSize`.
        public var chunkSize: Int64 = 10 << 20
        /// Files of at least this many bytes are uploaded in chunks where the server has chunking
        /// (dialect); `nil` is ``chunkSize``. Default `nil`; option `chunkThreshold`.
        public var chunkThreshold: Int64?
        /// Whether chunked uploads are used, over what the server's capabilities say; `nil` keeps
        /// the server's word. Default `nil`; option `chunking` (`true` or `false`).
        public var chunking: Bool?
        /// Whether `SEARCH` is used, over what the server's capabilities (or a probe) say; `nil`
        /// keeps the server's word. Default `nil`; option `search` (`true` or `false`).
        public var search: Bool?
        /// How a user name and password are sent. Default ``Authentication/automatic``; option
        /// `auth` (`auto` or `digest`).
        public var auth: Authentication = .automatic

        /// How a user name and password are sent to the server (see `PasswordAuthenticator` in
        /// HTTPProviderKit).
        public enum Authentication: String, Sendable, Hashable, CaseIterable {
            /// Basic with every request until the server asks for HTTP Digest, then Digest only.
            /// A server seen to want Digest is remembered (`ProviderConfiguration.serverFacts`),
            /// and the next connection sends no password until the server's challenge.
            case automatic = "auto"
            /// HTTP Digest only: the first request goes without credentials and the server's
            /// challenge is answered with Digest; the password is never sent in Basic, and a
            /// server that offers only Basic is refused (`ProviderError.Code.unauthorized`).
            case digest
        }

        /// The defaults.
        public init() {}

        /// Reads the configuration from string options: `dialect`, `user`, `chunkSize`,
        /// `chunkThreshold`, `chunking`, `search` and `auth`. Other names are left in `reader`.
        ///
        /// - Throws: `ProviderError.Code.invalidArgument` naming an option whose value is malformed.
        package init(reading reader: inout OptionReader) throws {
            dialect = try reader.choice("dialect", as: WebDAVDialect.Flavor.self)
            user = reader.text("user")
            chunkSize = try reader.integer("chunkSize", as: Int64.self, minimum: 1) ?? chunkSize
            chunkThreshold = try reader.integer("chunkThreshold", as: Int64.self, minimum: 1)
            chunking = try reader.flag("chunking")
            search = try reader.flag("search")
            auth = try reader.choice("auth", as: Authentication.self) ?? .automatic
        }
    }

    /// The one reading of `configuration`'s string options: the typed configuration, and
    /// `configuration` with its page limits applied and no options left.
    ///
    /// - Throws: ``ProviderError/Code/invalidArgument`` for a malformed or unknown option.
    static func reading(_ configuration: ProviderConfiguration) throws -> (ProviderConfiguration, Configuration) {
        let (common, webdav) = try configuration.readingOptions(for: "webdav") { try Configuration(reading: &$0) }
        return (common, webdav)
    }
}

import Foundation
import ProviderAPI
import ProviderKit

extension NuxeoProvider {
    /// How a ``NuxeoProvider`` talks to its server, beyond what every adapter gets in a
    /// `ProviderConfiguration` (URL, credentials, transport, retry, timeouts, page limits).
    ///
    /// Each property says its default and the string option that sets it (`-o name=value` on the
    /// command line, `ProviderConfiguration.options` through a `ProviderRegistry`): the
    /// ``NuxeoProviderFactory`` reads those once, with `init(reading:)`.
    ///
    /// ```swift
    /// var nuxeo = NuxeoProvider.Configuration()
    /// nuxeo.authentication = .token
    /// nuxeo.deletion = .trash
    /// let provider = try await NuxeoProvider.connect(ProviderConfiguration(url: url, credentials: credentials), nuxeo: nuxeo)
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// How the provider authenticates with a user name and password.
        public enum Authentication: String, Sendable, Hashable, CaseIterable {
            /// The password with every request (HTTP Basic).
            case basic
            /// The password once, to acquire an `X-Authentication-Token` sent from then on.
            case token
        }

        /// What ``NuxeoProvider/delete(_:)`` does.
        public enum Deletion: String, Sendable, Hashable, CaseIterable {
            /// Deletes for good.
            case permanent
            /// Moves to the trash.
            case trash
        }

        /// The web application's path, such as `/nuxeo` (`/` for none); `nil` takes the URL's
        /// first segment. Default `nil`; option `contextPath`.
        public var contextPath: String?
        /// The repository, sent as `X-NXRepository`. Default `default`; option `repository`.
        public var repository: String = "default"
        /// How a user name and password are sent. Default ``Authentication/basic``; option `auth`
        /// (`basic` or `token`).
        public var authentication: Authentication = .basic
        /// The application named in a token request. Default `Strata`; option `application`.
        public var tokenApplication: String = "Strata"
        /// The device id of a token request; `nil` derives a stable one from the host name and user.
        /// Default `nil`; option `deviceId`.
        public var tokenDeviceId: String?
        /// The device description of a token request; `nil` is the host name. Default `nil`;
        /// option `deviceDescription`.
        public var tokenDeviceDescription: String?
        /// The permission asked for in a token request. Default `rw`; option `permission`.
        public var tokenPermission: String = "rw"
        /// The schemas asked for with every document (`*` for all). Default `["*"]`; option
        /// `schemas` (a comma list).
        public var schemas: [String] = ["*"]
        /// The document enrichers asked for with every document. Default none; option `enrichers`
        /// (a comma list).
        public var enrichers: [String] = []
        /// Bytes per chunk of a chunked upload; larger files are sent in chunks. At least 1024
        /// (smaller values are taken as 1024). Default 8 MiB; option `chunkSize`.
        public var chunkSize: Int = 8 << 20
        /// Documents per page when a listing has no limit, at least 1. Default 1000; option `pageSize`.
        public var pageSize: Int = 1000
        /// What ``NuxeoProvider/delete(_:)`` does. Default ``Deletion/permanent``; option `delete`
        /// (`permanent` or `trash`).
        public var deletion: Deletion = .permanent
        /// Where ``NuxeoProvider/changes(since:)`` reads changes from. Default ``NuxeoChangeFeed/auto``;
        /// option `changes` (`auto`, `drive` or `query`).
        public var changeFeed: NuxeoChangeFeed = .auto

        /// The defaults.
        public init() {}

        /// Reads the configuration from string options: `contextPath`, `repository`, `auth`,
        /// `application`, `deviceId`, `deviceDescription`, `permission`, `schemas`, `enrichers`,
        /// `chunkSize`, `pageSize`, `delete` and `changes`. Other names are left in `reader`.
        ///
        /// - Throws: `ProviderError.Code.invalidArgument` naming an option whose value is malformed.
        package init(reading reader: inout OptionReader) throws {
            contextPath = reader.text("contextPath")
            repository = reader.text("repository") ?? repository
            authentication = try reader.choice("auth", as: Authentication.self) ?? authentication
            tokenApplication = reader.text("application") ?? tokenApplication
            tokenDeviceId = reader.text("deviceId")
            tokenDeviceDescription = reader.text("deviceDescription")
            tokenPermission = reader.text("permission") ?? tokenPermission
            schemas = reader.list("schemas") ?? schemas
            enrichers = reader.list("enrichers") ?? enrichers
            chunkSize = try reader.integer("chunkSize", minimum: 1024) ?? chunkSize
            pageSize = try reader.integer("pageSize", minimum: 1) ?? pageSize
            deletion = try reader.choice("delete", as: Deletion.self) ?? deletion
            changeFeed = try reader.choice("changes", as: NuxeoChangeFeed.self) ?? changeFeed
        }
    }

    /// The one reading of `configuration`'s string options: the typed configuration, and
    /// `configuration` with its page limits applied and no options left.
    ///
    /// - Throws: ``ProviderError/Code/invalidArgument`` for a malformed or unknown option.
    static func reading(_ configuration: ProviderConfiguration) throws -> (ProviderConfiguration, Configuration) {
        let (common, nuxeo) = try configuration.readingOptions(for: "nuxeo") { try Configuration(reading: &$0) }
        return (common, nuxeo)
    }
}

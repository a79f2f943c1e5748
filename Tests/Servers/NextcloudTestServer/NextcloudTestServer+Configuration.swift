import Foundation

extension NextcloudTestServer {
    /// Server settings; every property has a default.
    public struct Configuration: Sendable {
        /// Which server the answers imitate.
        public enum Flavor: Sendable {
            /// Nextcloud 18–30: `RGDNVCK` permissions, `nc:` properties, OCS `message` "OK", checksums as the client sent them.
            case nextcloud
            /// ownCloud 10: `RDNVCK` permissions, checksums computed by the server (`SHA1:… MD5:… ADLER32:…`).
            case owncloud
        }

        /// Which server the answers imitate (default ``Flavor/nextcloud``).
        public var flavor: Flavor
        /// User → password (default `["alice": "secret"]`).
        public var users: [String: String]
        /// App password → user: Basic auth with `user:apppassword` works as with the password.
        public var appPasswords: [String: String]
        /// Bearer token → user (`Authorization: Bearer t`).
        public var bearerTokens: [String: String]
        /// Chunking v2 available (default `true`). When `false`, `/remote.php/dav/uploads` answers 404
        /// and the capabilities report no `dav.chunking`.
        public var chunking: Bool
        /// WebDAV `SEARCH` available (default `true`); when `false` it answers 501.
        public var search: Bool
        /// Per-user quota in bytes; `nil` is unlimited, reported as `-3` like Nextcloud.
        public var quotaBytes: Int64?
        /// User → display name (default: the user id).
        public var displayNames: [String: String]
        /// Group → members, for group shares (`shareType` 1).
        public var groups: [String: [String]]
        /// Address to bind.
        public var host: String
        /// Port to bind (`0` picks a free one).
        public var port: Int
        /// Where bearer tokens not in `bearerTokens` are checked (an OAuth2 authorization server's
        /// introspection endpoint); `nil`, the default, checks none.
        public var introspection: Introspection? = nil

        /// Creates a configuration; every argument has a default.
        public init(
            flavor: Flavor = .nextcloud,
            users: [String: String] = ["alice": "secret"],
            appPasswords: [String: String] = [:],
            bearerTokens: [String: String] = [:],
            chunking: Bool = true,
            search: Bool = true,
            quotaBytes: Int64? = nil,
            displayNames: [String: String] = [:],
            groups: [String: [String]] = [:],
            host: String = "127.0.0.1",
            port: Int = 0
        ) {
            self.flavor = flavor
            self.users = users
            self.appPasswords = appPasswords
            self.bearerTokens = bearerTokens
            self.chunking = chunking
            self.search = search
            self.quotaBytes = quotaBytes
            self.displayNames = displayNames
            self.groups = groups
            self.host = host
            self.port = port
        }

        /// The display name of `user`.
        func displayName(_ user: String) -> String { displayNames[user] ?? user }
    }
}

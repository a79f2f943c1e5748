import Foundation
import ProviderAPI
import HTTPProviderKit

/// What an ownCloud or Nextcloud server offers, read from its OCS capabilities
/// (`GET /ocs/v2.php/cloud/capabilities?format=json`).
package struct OwnCloudServerFeatures: Sendable, Hashable {
    /// Chunked uploads (`dav.chunking`).
    package var chunking: Bool
    /// The OCS Share API (`files_sharing.api_enabled`).
    package var sharing: Bool
    /// Public links (`files_sharing.public.enabled`).
    package var publicLinks: Bool
    /// Public links must have a password (`files_sharing.public.password.enforced`).
    package var passwordEnforced: Bool
    /// Shares by e-mail (`files_sharing.sharebymail.enabled`).
    package var emailShares: Bool
    /// WebDAV `SEARCH` (RFC 5323 basicsearch) on `remote.php/dav`.
    package var search: Bool
    /// A trash bin (`files.undelete`).
    package var trash: Bool
    /// Checksum algorithms the server names for uploads (`checksums.supportedTypes`), uppercased.
    package var checksumTypes: [String]
    /// The version string of the capabilities (`version.string`).
    package var version: String?

    /// Creates a feature set; the defaults are those of a current Nextcloud.
    package init(
        chunking: Bool = true, sharing: Bool = true, publicLinks: Bool = true, passwordEnforced: Bool = false,
        emailShares: Bool = false, search: Bool = true, trash: Bool = true, checksumTypes: [String] = ["SHA1"],
        version: String? = nil
    ) {
        self.chunking = chunking
        self.sharing = sharing
        self.publicLinks = publicLinks
        self.passwordEnforced = passwordEnforced
        self.emailShares = emailShares
        self.search = search
        self.trash = trash
        self.checksumTypes = checksumTypes
        self.version = version
    }

    /// Reads the `data` of a capabilities answer (``OCSEnvelope/data``).
    ///
    /// `search` is not among the OCS capabilities of either server: it is taken from
    /// `dav.search` where a server names it, and otherwise assumed for Nextcloud and not for
    /// ownCloud (whose search is its own `oc:search-files` REPORT).
    package init(capabilities data: JSONValue, flavor: WebDAVDialect.Flavor) {
        let caps = data["capabilities"] ?? .null
        let dav = caps["dav"] ?? .null
        let sharing = caps["files_sharing"] ?? .null
        chunking = dav["chunking"]?.stringValue.map { !$0.isEmpty && $0 != "false" && $0 != "0" } ?? false
        self.sharing = sharing["api_enabled"]?.boolValue ?? (sharing != .null)
        publicLinks = self.sharing && (sharing["public"]?["enabled"]?.boolValue ?? false)
        passwordEnforced = sharing["public"]?["password"]?["enforced"]?.boolValue ?? false
        emailShares = self.sharing && (sharing["sharebymail"]?["enabled"]?.boolValue ?? false)
        if let declared = dav["search"]?.boolValue ?? dav["search"]?.stringValue.map({ !$0.isEmpty && $0 != "false" }) {
            search = declared
        } else {
            search = flavor == .nextcloud
        }
        trash = caps["files"]?["undelete"]?.boolValue ?? false
        checksumTypes = caps["checksums"]?["supportedTypes"]?.stringArrayValue?.map { $0.uppercased() } ?? ["SHA1"]
        version = data["version"]?["string"]?.stringValue
    }
}

import Foundation
import ProviderAPI
import HTTPProviderKit

/// The answer of `GET /status.php`, which ownCloud and Nextcloud serve without authentication:
/// `{"installed":true,"maintenance":false,"version":"13.0.0.5","productname":"Nextcloud",…}`.
package struct OwnCloudStatus: Sendable, Hashable {
    /// Whether the server is set up.
    package var installed: Bool
    /// Whether it is in maintenance mode (WebDAV then answers 503).
    package var maintenance: Bool
    /// The dotted version (`13.0.0.5`).
    package var version: String?
    /// The version for people (`13.0.0 alpha`).
    package var versionString: String?
    /// `Nextcloud` or `ownCloud` (or a branded name).
    package var productName: String?

    /// Reads a `status.php` body.
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` when the body is not a status object.
    package init(json data: Data) throws {
        let json = try JSONValue(json: data)
        guard let installed = json["installed"]?.boolValue, json["version"] != nil || json["productname"] != nil else {
            throw ProviderError(.invalidResponse, "the answer is not an ownCloud/Nextcloud status.php object")
        }
        self.installed = installed
        maintenance = json["maintenance"]?.boolValue ?? false
        version = json["version"]?.stringValue
        versionString = json["versionstring"]?.stringValue
        productName = json["productname"]?.stringValue
    }

    /// The family: `ownCloud` in the product name is ownCloud, anything else (Nextcloud and its brandings) Nextcloud.
    package var flavor: WebDAVDialect.Flavor {
        (productName ?? "").lowercased().contains("owncloud") ? .owncloud : .nextcloud
    }
}

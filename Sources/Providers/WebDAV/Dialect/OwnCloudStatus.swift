import Foundation
import ProviderAPI
import HTTPProviderKit

/// The answer of `GET /status.php`, which ownCloud and Nextcloud serve without authentication:
/// `{"installed":true,"maintenance":false,"version":"13.0.0.5","productname":"Nextcloud",…}`.
public struct OwnCloudStatus: Sendable, Hashable {
    /// Whether the server is set up.
    public var installed: Bool
    /// Whether it is in maintenance mode (WebDAV then answers 503).
    public var maintenance: Bool
    /// The dotted version (`13.0.0.5`).
    public var version: String?
    /// The version for people (`13.0.0 alpha`).
    public var versionString: String?
    /// `Nextcloud` or `ownCloud` (or a branded name).
    public var productName: String?

    /// Reads a `status.php` body.
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` when the body is not a status object.
    public init(json data: Data) throws {
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
    public var flavor: WebDAVDialect.Flavor {
        (productName ?? "").lowercased().contains("owncloud") ? .owncloud : .nextcloud
    }
}

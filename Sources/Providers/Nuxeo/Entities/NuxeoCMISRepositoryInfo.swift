import Foundation
import ProviderAPI

/// The repository description of `GET {base}/json/cmis`, the pre-LTS-2021 way to learn the
/// server version (`productVersion`). Not an entity: the answer is keyed by repository name.
package struct NuxeoCMISRepositoryInfo: Sendable, Hashable {
    /// The repository id (`default`).
    package var repositoryId: String
    /// The repository's display name.
    package var repositoryName: String?
    /// `Nuxeo`.
    package var vendorName: String?
    /// `Nuxeo OpenCMIS Connector`.
    package var productName: String?
    /// The Nuxeo version (`9.10`).
    package var productVersion: String?
    /// The uid of the root document.
    package var rootFolderId: String?
    /// The latest CMIS change log token.
    package var latestChangeLogToken: String?
    /// The CMIS version (`1.1`).
    package var cmisVersionSupported: String?
    /// The server's base URL as it sees itself.
    package var thinClientURI: String?

    /// The major version from ``productVersion`` (`9` for `9.10`).
    package var majorVersion: Int? {
        productVersion?.split(separator: ".").first.flatMap { Int($0) }
    }

    /// Reads the description of `repository` from a `json/cmis` answer.
    ///
    /// - Throws: `ProviderError` `invalidResponse` when the JSON is malformed or has no such repository.
    package static func decode(_ data: Data, repository: String = "default") throws -> NuxeoCMISRepositoryInfo {
        let json = try NuxeoJSON.parse(data)
        guard let info = json[repository], case .object(let members) = info else {
            throw ProviderError(.invalidResponse, "the CMIS answer has no repository \"\(repository)\"")
        }
        let entity = "CMIS repository"
        return NuxeoCMISRepositoryInfo(
            repositoryId: try members.optionalString("repositoryId", in: entity) ?? repository,
            repositoryName: try members.optionalString("repositoryName", in: entity),
            vendorName: try members.optionalString("vendorName", in: entity),
            productName: try members.optionalString("productName", in: entity),
            productVersion: try members.optionalString("productVersion", in: entity),
            rootFolderId: try members.optionalString("rootFolderId", in: entity),
            latestChangeLogToken: try members.optionalString("latestChangeLogToken", in: entity),
            cmisVersionSupported: try members.optionalString("cmisVersionSupported", in: entity),
            thinClientURI: try members.optionalString("thinClientURI", in: entity))
    }
}

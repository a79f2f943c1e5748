import Foundation
import ProviderAPI
import HTTPProviderKit

/// The `login` entity answered by the `login` Automation operation: who the credentials belong to.
package struct NuxeoLogin: NuxeoEntityDecodable, Hashable {
    package static let entityType = "login"

    /// The user name.
    package var username: String
    /// Whether the user is an administrator.
    package var isAdministrator: Bool?
    /// The user's groups.
    package var groups: [String]

    package init(nuxeoJSON json: JSONValue) throws {
        let members = try json.entityMembers("login")
        username = try members.requiredString("username", in: "login")
        isAdministrator = try members.optionalBool("isAdministrator", in: "login")
        groups = try members.optionalStrings("groups", in: "login")
    }
}

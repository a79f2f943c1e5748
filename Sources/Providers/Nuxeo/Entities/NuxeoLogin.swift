import Foundation
import ProviderAPI
import HTTPProviderKit

/// The `login` entity answered by the `login` Automation operation: who the credentials belong to.
public struct NuxeoLogin: NuxeoEntityDecodable, Hashable {
    public static let entityType = "login"

    /// The user name.
    public var username: String
    /// Whether the user is an administrator.
    public var isAdministrator: Bool?
    /// The user's groups.
    public var groups: [String]

    public init(nuxeoJSON json: JSONValue) throws {
        let members = try json.entityMembers("login")
        username = try members.requiredString("username", in: "login")
        isAdministrator = try members.optionalBool("isAdministrator", in: "login")
        groups = try members.optionalStrings("groups", in: "login")
    }
}

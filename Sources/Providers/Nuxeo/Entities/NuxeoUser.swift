import Foundation
import ProviderAPI
import HTTPProviderKit

/// The `user` entity (`GET /api/v1/me`, `/user/{name}`).
///
/// On LTS 2025 ``id`` may be a generated UUID different from the login name; use ``username``.
package struct NuxeoUser: NuxeoEntityDecodable, Hashable {
    package static let entityType = "user"

    /// The entity id: the login name on older servers, maybe a UUID on newer ones.
    package var id: String
    /// The login name: `properties.username`, else ``id``.
    package var username: String
    /// The user schema properties (`firstName`, `lastName`, `email`, `company`, `groups`, …).
    package var properties: [String: JSONValue]
    /// The groups with their labels, including inherited ones.
    package var extendedGroups: [Group]
    /// Whether the user is an administrator.
    package var isAdministrator: Bool?
    /// Whether this is the anonymous user.
    package var isAnonymous: Bool?

    /// A group the user belongs to.
    package struct Group: Sendable, Hashable {
        /// The group id.
        package var name: String
        /// The display label.
        package var label: String?
        /// The REST path of the group (`group/administrators`).
        package var url: String?
    }

    package init(nuxeoJSON json: JSONValue) throws {
        let entity = "user"
        let members = try json.entityMembers(entity)
        id = try members.requiredString("id", in: entity)
        properties = try members.optionalObject("properties", in: entity)
        username = properties["username"]?.stringValue ?? id
        extendedGroups = try members.optionalArray("extendedGroups", in: entity).map { group in
            let groupMembers = try group.entityMembers("group")
            return Group(
                name: try groupMembers.requiredString("name", in: "group"),
                label: try groupMembers.optionalString("label", in: "group"),
                url: try groupMembers.optionalString("url", in: "group"))
        }
        isAdministrator = try members.optionalBool("isAdministrator", in: entity)
        isAnonymous = try members.optionalBool("isAnonymous", in: entity)
    }

    /// `properties.firstName`.
    package var firstName: String? { properties["firstName"]?.stringValue }
    /// `properties.lastName`.
    package var lastName: String? { properties["lastName"]?.stringValue }
    /// `properties.email`.
    package var email: String? { properties["email"]?.stringValue }
    /// `properties.company`.
    package var company: String? { properties["company"]?.stringValue }
    /// `properties.groups`.
    package var groups: [String] { properties["groups"]?.stringArrayValue ?? [] }
}

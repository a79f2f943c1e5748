import Foundation
import ProviderAPI
import HTTPProviderKit

/// A Pydio workspace (a "repository"): `<repo>` of the `user/repositories` registry.
public struct PydioWorkspace: Sendable, Hashable {
    /// The id (`0`, `1`, `b03285d8…`).
    public var id: String
    /// The slug (`my-files`), when the server sends one.
    public var slug: String?
    /// The label shown to users.
    public var label: String
    /// The description.
    public var description: String?
    /// The driver (`fs`, `ajxp_home`, `inbox`, `ajxp_conf`, `s3`, …).
    public var accessType: String?
    /// The user's rights (`r`, `w`, `rw`), on Pydio 6 and later.
    public var acl: String?

    /// Drivers that are not file workspaces (home page, settings, shared-with-me views).
    public static let nonFileAccessTypes: Set<String> = ["ajxp_home", "ajxp_conf", "ajxp_shared", "ajxp_user", "inbox"]

    /// Whether the workspace holds files a provider can browse.
    public var holdsFiles: Bool { !Self.nonFileAccessTypes.contains(accessType ?? "fs") }

    /// Reads a `<repo>` element; `nil` without an `id`.
    package init?(_ element: XMLElementTree) {
        guard element.name == "repo", let id = element.attributes["id"], !id.isEmpty else { return nil }
        self.id = id
        slug = element.attributes["repositorySlug"]
        label = element.child("label")?.text ?? id
        description = element.child("description")?.text
        accessType = element.attributes["access_type"]
        acl = element.attributes["acl"]
    }

    /// Whether `reference` names this workspace by id or slug.
    public func matches(_ reference: String) -> Bool { reference == id || reference == slug }
}

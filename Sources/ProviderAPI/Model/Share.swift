import Foundation

/// Who a share is for.
public enum ShareKind: Sendable, Hashable, Codable {
    /// A public link anyone holding it can open.
    case publicLink
    /// A grant to a user of the server.
    case user(String)
    /// A grant to a group of the server.
    case group(String)
    /// An invitation by e-mail.
    case email(String)

    /// The kind without its recipient, for ``Capabilities/shareKinds``.
    public enum Tag: String, Sendable, Hashable, Codable { case publicLink, user, group, email }

    /// This kind's tag.
    public var tag: Tag {
        switch self {
        case .publicLink: return .publicLink
        case .user: return .user
        case .group: return .group
        case .email: return .email
        }
    }
}

/// What the recipient of a share may do.
public struct SharePermissions: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The recipient can read.
    public static let read = SharePermissions(rawValue: 1 << 0)
    /// The recipient can change content.
    public static let write = SharePermissions(rawValue: 1 << 1)
    /// The recipient can add items (folders).
    public static let create = SharePermissions(rawValue: 1 << 2)
    /// The recipient can delete items.
    public static let delete = SharePermissions(rawValue: 1 << 3)
    /// The recipient can share further.
    public static let reshare = SharePermissions(rawValue: 1 << 4)
}

/// An existing share of an item.
public struct Share: Sendable, Hashable, Codable, Identifiable {
    /// The server's identifier for the share.
    public var id: String
    /// The shared item.
    public var path: ItemPath
    /// Who it is for.
    public var kind: ShareKind
    /// What the recipient may do.
    public var permissions: SharePermissions
    /// The link, for public links: what a person opens (on many servers a page about the item).
    public var url: URL?
    /// A URL that answers a plain `GET`, without credentials, with the shared file's bytes, where the
    /// server has one (a public link on a file); `nil` for folders and for servers whose only link
    /// is ``url``. A password-protected link refuses it without the password.
    public var downloadURL: URL?
    /// When it stops working, as the server set it.
    ///
    /// A server may keep a coarser expiry than the one asked (whole days, for example): this is
    /// the server's, which differs from ``ShareRequest/expires`` by less than
    /// ``Capabilities/shareExpiryGranularity``.
    public var expires: Date?
    /// Whether opening it needs a password.
    public var passwordProtected: Bool
    /// Raw provider properties.
    public var properties: [String: String]

    /// Creates a share description.
    public init(
        id: String, path: ItemPath, kind: ShareKind, permissions: SharePermissions = .read, url: URL? = nil,
        downloadURL: URL? = nil, expires: Date? = nil, passwordProtected: Bool = false, properties: [String: String] = [:]
    ) {
        self.id = id
        self.path = path
        self.kind = kind
        self.permissions = permissions
        self.url = url
        self.downloadURL = downloadURL
        self.expires = expires
        self.passwordProtected = passwordProtected
        self.properties = properties
    }
}

/// A share to create.
public struct ShareRequest: Sendable, Hashable {
    /// Who it is for.
    public var kind: ShareKind
    /// What the recipient may do.
    public var permissions: SharePermissions
    /// A password for public links.
    public var password: String?
    /// When it stops working. The server may round it (see ``Capabilities/shareExpiryGranularity``);
    /// the created ``Share/expires`` says what it kept.
    public var expires: Date?
    /// A note for the recipient.
    public var note: String?
    /// Whether the server should notify the recipient.
    public var notify: Bool

    /// Creates a share request.
    public init(
        kind: ShareKind, permissions: SharePermissions = .read, password: String? = nil, expires: Date? = nil,
        note: String? = nil, notify: Bool = false
    ) {
        self.kind = kind
        self.permissions = permissions
        self.password = password
        self.expires = expires
        self.note = note
        self.notify = notify
    }
}

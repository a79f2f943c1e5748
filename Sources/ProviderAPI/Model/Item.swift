import Foundation

/// Whether an item is a file or a folder.
public enum ItemKind: String, Sendable, Hashable, Codable {
    case file
    case folder
}

/// A digest algorithm, named as servers name it (`md5`, `sha1`, `sha256`).
public struct DigestAlgorithm: RawRepresentable, Hashable, Sendable, Codable, CodingKeyRepresentable, CustomStringConvertible {
    public let rawValue: String
    /// Creates an algorithm from its lowercased name.
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }
    /// MD5.
    public static let md5 = DigestAlgorithm(rawValue: "md5")
    /// SHA-1.
    public static let sha1 = DigestAlgorithm(rawValue: "sha1")
    /// SHA-256.
    public static let sha256 = DigestAlgorithm(rawValue: "sha256")
    public var description: String { rawValue }

    public var codingKey: any CodingKey { Key(stringValue: rawValue) }
    public init?<T: CodingKey>(codingKey: T) { self.init(rawValue: codingKey.stringValue) }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// What the current user may do with an item, as far as the server says.
public struct ItemPermissions: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The content and metadata can be read.
    public static let read = ItemPermissions(rawValue: 1 << 0)
    /// The content can be replaced.
    public static let write = ItemPermissions(rawValue: 1 << 1)
    /// The item can be deleted.
    public static let delete = ItemPermissions(rawValue: 1 << 2)
    /// The item can be renamed or moved.
    public static let rename = ItemPermissions(rawValue: 1 << 3)
    /// Files and folders can be created inside (folders).
    public static let createChildren = ItemPermissions(rawValue: 1 << 4)
    /// The item can be shared.
    public static let share = ItemPermissions(rawValue: 1 << 5)
    /// Every permission.
    public static let all: ItemPermissions = [.read, .write, .delete, .rename, .createChildren, .share]
}

/// Metadata of one file or folder.
public struct Item: Sendable, Hashable, Codable, Identifiable {
    /// The server's stable identifier when it has one (ownCloud file id, Nuxeo uid), else the path.
    public var id: String
    /// Where the item is, relative to the provider's root.
    public var path: ItemPath
    /// Whether it is a file or a folder.
    public var kind: ItemKind
    /// Size in bytes; `nil` where the server does not say (often for folders).
    public var size: Int64?
    /// Last modification time.
    public var modified: Date?
    /// Creation time, where the server keeps one.
    public var created: Date?
    /// The entity tag or change token: it changes when the content changes.
    public var etag: String?
    /// MIME type, where the server reports one.
    public var mimeType: String?
    /// Content digests, lowercase hex, by algorithm.
    public var digests: [DigestAlgorithm: String]
    /// What the user may do, where the server says.
    public var permissions: ItemPermissions?
    /// Raw provider properties, for anything the portable fields do not carry.
    public var properties: [String: String]

    /// The last segment of ``path``.
    public var name: String { path.name }
    /// Whether this is a folder.
    public var isFolder: Bool { kind == .folder }

    /// Creates an item.
    public init(
        id: String? = nil, path: ItemPath, kind: ItemKind, size: Int64? = nil, modified: Date? = nil,
        created: Date? = nil, etag: String? = nil, mimeType: String? = nil,
        digests: [DigestAlgorithm: String] = [:], permissions: ItemPermissions? = nil,
        properties: [String: String] = [:]
    ) {
        self.id = id ?? path.description
        self.path = path
        self.kind = kind
        self.size = size
        self.modified = modified
        self.created = created
        self.etag = etag
        self.mimeType = mimeType
        self.digests = digests
        self.permissions = permissions
        self.properties = properties
    }
}

import Foundation

/// The optional ``Item`` fields a listing must fill, so that a provider can ask its server
/// for less when the caller needs less.
///
/// It is a hint, never a filter: a provider fills at least the fields asked for (where the
/// server has them) and may fill more. Path, kind, size, modification time and etag are
/// always filled. WebDAV leaves `getcontenttype` out of its `PROPFIND` without
/// ``mimeType``: Apache mod_dav looks each file's type up on every listing, which costs it
/// about as much as the rest of the listing.
///
/// ```swift
/// let names = try await provider.listAll("/Photos", fields: [])   // no MIME types needed
/// ```
public struct ItemFields: OptionSet, Hashable, Sendable, Codable {
    public let rawValue: UInt32
    /// Creates a set from its raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// ``Item/mimeType``.
    public static let mimeType = ItemFields(rawValue: 1 << 0)
    /// ``Item/permissions``: the local adapter checks each entry's access with the system for them
    /// (three `faccessat` calls per entry), which a copy or a table of names does not need.
    public static let permissions = ItemFields(rawValue: 1 << 1)
    /// Every field the provider can fill: the default.
    public static let all = ItemFields(rawValue: .max)
}

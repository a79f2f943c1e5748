import Foundation
import HTTPProviderKit
import ProviderAPI

/// The DAV: properties an ``ProviderAPI/Item`` is made of, read by the multistatus parser while the
/// answer streams (sizes and dates straight from the bytes of their text, no `String` each)
/// instead of being kept as texts in ``DAVListingEntry/found``.
///
/// They follow the rules of ``DAVListingEntry/found``: within one `propstat` a property named
/// twice keeps its last value; across `propstat`s the first 2xx one naming it wins (a property
/// present with an unreadable value wins too: its field stays `nil`); a failed `propstat` gives nothing.
package struct DAVItemFields: Sendable, Equatable {
    /// The properties read into fields.
    package enum Property: Sendable {
        case resourcetype, getcontentlength, getlastmodified, creationdate, getetag, getcontenttype

        /// The property `name` is, if it is one read into fields.
        package init?(_ name: XMLName) {
            guard name.namespace == DAVPropertyName.dav else { return nil }
            switch name.name {
            case "resourcetype": self = .resourcetype
            case "getcontentlength": self = .getcontentlength
            case "getlastmodified": self = .getlastmodified
            case "creationdate": self = .creationdate
            case "getetag": self = .getetag
            case "getcontenttype": self = .getcontenttype
            default: return nil
            }
        }

        fileprivate var bit: UInt8 {
            switch self {
            case .resourcetype: 1 << 0
            case .getcontentlength: 1 << 1
            case .getlastmodified: 1 << 2
            case .creationdate: 1 << 3
            case .getetag: 1 << 4
            case .getcontenttype: 1 << 5
            }
        }
    }

    /// Which properties were named, one bit per ``Property``.
    private var present: UInt8 = 0
    /// Whether `resourcetype` has a `DAV:collection` child.
    package var isCollection = false
    /// `getcontentlength`, when it is a non-negative integer.
    package var size: Int64?
    /// `getlastmodified`, in any form `DAVDate` reads.
    package var modified: Date?
    /// `creationdate`, ISO 8601 or an HTTP date.
    package var created: Date?
    /// `getetag`, quoted when the server sent it bare (``DAVItemMapper/normalizeETag(_:)``).
    package var etag: String?
    /// `getcontenttype`, as sent (empty when absent).
    package var contentType = ""

    package init() {}

    /// Whether `property` was named.
    package func contains(_ property: Property) -> Bool { present & property.bit != 0 }

    /// Notes that `property` was named (its field already set).
    package mutating func insert(_ property: Property) { present |= property.bit }

    /// Takes from `later` (the fields of a later 2xx `propstat`) every property not named here.
    package mutating func merge(_ later: DAVItemFields) {
        let new = later.present & ~present
        guard new != 0 else { return }
        func taking(_ property: Property) -> Bool { new & property.bit != 0 }
        if taking(.resourcetype) { isCollection = later.isCollection }
        if taking(.getcontentlength) { size = later.size }
        if taking(.getlastmodified) { modified = later.modified }
        if taking(.creationdate) { created = later.created }
        if taking(.getetag) { etag = later.etag }
        if taking(.getcontenttype) { contentType = later.contentType }
        present |= new
    }

    /// A `getcontentlength` text: a non-negative integer (``size(utf8:)`` of its bytes).
    package static func size(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { size(utf8: $0) }
    }

    /// A `creationdate` text: ISO 8601 (RFC 4918), or an HTTP date as some servers send.
    package static func created(_ text: String) -> Date? {
        HTTPDate.parseISO8601(text) ?? HTTPDate.parse(text)
    }

    /// A `getcontentlength` text as `Int64(text)` reads it, `nil` when negative: plain digits are
    /// read from the bytes, anything else (a sign, an overflow, other characters) through `Int64(_:)`.
    package static func size(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        if !bytes.isEmpty, bytes.count <= 18 {
            var value: Int64 = 0
            var plain = true
            for byte in bytes {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                    plain = false
                    break
                }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            if plain { return value }
        }
        return Int64(String(decoding: bytes, as: UTF8.self)).flatMap { $0 >= 0 ? $0 : nil }
    }
}

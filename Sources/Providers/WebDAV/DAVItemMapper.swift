import Foundation
import ProviderAPI
import HTTPProviderKit

/// Maps the properties of a PROPFIND response to an ``Item``.
package enum DAVItemMapper {
    package static func item(path: ItemPath, properties: [DAVPropertyName: DAVPropertyValue]) -> Item {
        let isFolder = properties[.resourcetype]?.children.contains(.collection) ?? false
        var item = Item(path: path, kind: isFolder ? .folder : .file)
        var raw: [String: String] = [:]
        for (name, value) in properties {
            switch name {
            case .resourcetype:
                continue
            case .getcontentlength:
                item.size = Int64(value.text).flatMap { $0 >= 0 ? $0 : nil }
            case .getlastmodified:
                item.modified = HTTPDate.parse(value.text)
            case .creationdate:
                item.created = HTTPDate.parseISO8601(value.text) ?? HTTPDate.parse(value.text)
            case .getetag:
                item.etag = normalizeETag(value.text)
            case .getcontenttype:
                if !value.text.isEmpty, !isFolder { item.mimeType = value.text }
            default:
                if !value.text.isEmpty { raw[name.description] = value.text }
            }
        }
        item.properties = raw
        return item
    }

    /// Quotes an etag that a server (wsgidav) sent bare, so it can go back in `If-Match`.
    static func normalizeETag(_ value: String) -> String? {
        // Etags are ASCII: trim through Foundation only when an end is white space or not ASCII.
        func trimmable(_ byte: UInt8?) -> Bool { byte.map { $0 == 0x20 || $0 == 0x09 || $0 >= 0x80 } ?? false }
        let needsTrim = trimmable(value.utf8.first) || trimmable(value.utf8.last)
        let trimmed = needsTrim ? value.trimmingCharacters(in: .whitespaces) : value
        if trimmed.isEmpty { return nil }
        if trimmed.hasPrefix("\"") || trimmed.hasPrefix("W/\"") { return trimmed }
        return "\"\(trimmed)\""
    }
}

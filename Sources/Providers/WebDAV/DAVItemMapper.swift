import Foundation
import ProviderAPI
import HTTPProviderKit

/// Maps the properties of a PROPFIND response to an ``Item``.
package enum DAVItemMapper {
    package static func item(path: ItemPath, properties: [DAVPropertyName: DAVPropertyValue]) -> Item {
        let isFolder = properties[.resourcetype]?.children.contains(.collection) ?? false
        var item = Item(path: path, kind: isFolder ? .folder : .file)
        var raw: [String: String] = [:]
        for (name, value) in properties { apply(name, value, to: &item, isFolder: isFolder, raw: &raw) }
        item.properties = raw
        return item
    }

    /// The item of a listing entry, from its ``DAVListingEntry/found`` properties: the same item
    /// as ``item(path:properties:)`` with ``DAVResponse/found``.
    package static func item(path: ItemPath, entry: DAVListingEntry) -> Item {
        if let fields = entry.fields { return item(path: path, fields: fields, others: entry.found) }
        let isFolder = entry.found.first { $0.name.namespace == DAVPropertyName.dav && $0.name.name == "resourcetype" }?
            .value.children.contains { $0.namespace == DAVPropertyName.dav && $0.name == "collection" } ?? false
        var item = Item(path: path, kind: isFolder ? .folder : .file)
        var raw: [String: String] = [:]
        for (name, value) in entry.found { apply(name, value, to: &item, isFolder: isFolder, raw: &raw) }
        item.properties = raw
        return item
    }

    /// The item of a listing entry whose item properties were read into `fields`; `others` are the
    /// remaining found properties, kept in ``ProviderAPI/Item/properties`` when not empty.
    private static func item(path: ItemPath, fields: DAVItemFields, others: [(name: DAVPropertyName, value: DAVPropertyValue)]) -> Item {
        let isFolder = fields.isCollection
        var item = Item(path: path, kind: isFolder ? .folder : .file)
        item.size = fields.size
        item.modified = fields.modified
        item.created = fields.created
        item.etag = fields.etag
        if !fields.contentType.isEmpty, !isFolder { item.mimeType = fields.contentType }
        if !others.isEmpty {
            var raw: [String: String] = [:]
            for (name, value) in others { apply(name, value, to: &item, isFolder: isFolder, raw: &raw) }
            item.properties = raw
        }
        return item
    }

    /// Sets the field `name` maps to, or keeps a non-empty value of another property in `raw`.
    private static func apply(_ name: DAVPropertyName, _ value: DAVPropertyValue, to item: inout Item, isFolder: Bool, raw: inout [String: String]) {
        // The names of the DAV: namespace by their local name: no comparison of both strings per name.
        if name.namespace == DAVPropertyName.dav {
            switch name.name {
            case "resourcetype":
                return
            case "getcontentlength":
                item.size = DAVItemFields.size(value.text)
                return
            case "getlastmodified":
                item.modified = DAVDate.modified(value.text)
                return
            case "creationdate":
                item.created = DAVItemFields.created(value.text)
                return
            case "getetag":
                item.etag = normalizeETag(value.text)
                return
            case "getcontenttype":
                if !value.text.isEmpty, !isFolder { item.mimeType = value.text }
                return
            default:
                break
            }
        }
        if !value.text.isEmpty { raw[name.description] = value.text }
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

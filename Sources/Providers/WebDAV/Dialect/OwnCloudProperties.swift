import Foundation
import ProviderAPI

/// The `oc:` (`http://owncloud.org/ns`) and `nc:` (`http://nextcloud.org/ns`) properties Strata
/// asks for, and how they refine an `Item`: `oc:fileid` (or `oc:id`) as the id,
/// `oc:permissions` as permissions, `oc:checksums` as digests, `oc:size` as a folder's size,
/// `oc:share-types`, and `nc:creation_time` / `nc:upload_time`.
package enum OwnCloudProperties {
    /// `http://owncloud.org/ns`.
    package static let oc = "http://owncloud.org/ns"
    /// `http://nextcloud.org/ns`.
    package static let nc = "http://nextcloud.org/ns"

    static let fileid = DAVPropertyName(oc, "fileid")
    static let id = DAVPropertyName(oc, "id")
    static let permissions = DAVPropertyName(oc, "permissions")
    static let checksums = DAVPropertyName(oc, "checksums")
    static let size = DAVPropertyName(oc, "size")
    static let shareTypes = DAVPropertyName(oc, "share-types")
    static let favorite = DAVPropertyName(oc, "favorite")
    static let creationTime = DAVPropertyName(nc, "creation_time")
    static let uploadTime = DAVPropertyName(nc, "upload_time")

    /// The PROPFIND body: what a plain item needs plus the dialect's properties.
    package static let propfindBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns"><d:prop>\
        <d:resourcetype/><d:getcontentlength/><d:getlastmodified/><d:getetag/><d:getcontenttype/>\
        <oc:fileid/><oc:id/><oc:permissions/><oc:checksums/><oc:size/><oc:share-types/><oc:favorite/>\
        <nc:creation_time/><nc:upload_time/></d:prop></d:propfind>
        """

    /// The properties a `SEARCH` selects (the `d:prop` content of ``propfindBody``).
    package static let selectProperties = """
        <d:resourcetype/><d:getcontentlength/><d:getlastmodified/><d:getetag/><d:getcontenttype/>\
        <oc:fileid/><oc:id/><oc:permissions/><oc:checksums/><oc:size/><oc:share-types/><oc:favorite/>\
        <nc:creation_time/><nc:upload_time/>
        """

    /// `item` (as plain WebDAV read it) with what the dialect's properties add.
    package static func refine(_ item: Item, properties: [DAVPropertyName: DAVPropertyValue]) -> Item {
        var item = item
        if let fileid = nonEmpty(properties[fileid]?.text) {
            item.id = fileid
        } else if let id = nonEmpty(properties[id]?.text) {
            item.id = id
        }
        if let letters = properties[permissions]?.text {
            item.permissions = permissions(letters, folder: item.isFolder)
            item.properties["oc:permissions"] = letters
        }
        if let value = properties[checksums] {
            let text = ([value.text] + value.childTexts).joined(separator: " ")
            for (algorithm, hex) in OwnCloudChecksum.parse(text) where item.digests[algorithm] == nil {
                item.digests[algorithm] = hex
            }
        }
        if item.isFolder, item.size == nil, let size = properties[size].flatMap({ Int64($0.text) }), size >= 0 {
            item.size = size
        }
        if let types = properties[shareTypes] {
            let list = types.childTexts.filter { !$0.isEmpty }
            item.properties["oc:share-types"] = list.joined(separator: ",")
        }
        if let favorite = nonEmpty(properties[favorite]?.text) { item.properties["oc:favorite"] = favorite }
        if let created = properties[creationTime].flatMap({ Int64($0.text) }), created > 0 {
            item.created = UnixTime.date(seconds: Double(created))
        }
        if let uploaded = properties[uploadTime].flatMap({ Int64($0.text) }), uploaded > 0 {
            item.properties["nc:upload_time"] = String(uploaded)
        }
        for name in [fileid, id, permissions, checksums, size, shareTypes, favorite, creationTime, uploadTime] {
            item.properties[name.description] = nil
        }
        return item
    }

    /// Portable permissions from ownCloud's letters: `S` shared, `R` reshareable, `M` mounted,
    /// `G` readable, `D` deletable, `N` renameable, `V` moveable, `W` writable (files),
    /// `C`/`K` may create files/folders inside (folders).
    package static func permissions(_ letters: String, folder: Bool) -> ItemPermissions {
        var permissions: ItemPermissions = [.read]
        for letter in letters.uppercased() {
            switch letter {
            case "W": permissions.insert(.write)
            case "D": permissions.insert(.delete)
            case "N", "V": permissions.insert(.rename)
            case "C", "K":
                permissions.insert(.createChildren)
                if folder { permissions.insert(.write) }
            case "R": permissions.insert(.share)
            default: break
            }
        }
        return permissions
    }

    /// The share types in `properties` (0 user, 1 group, 3 link, …), as `refine` stored them.
    package static func shareTypes(of item: Item) -> [Int] {
        (item.properties["oc:share-types"] ?? "").split(separator: ",").compactMap { Int($0) }
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}

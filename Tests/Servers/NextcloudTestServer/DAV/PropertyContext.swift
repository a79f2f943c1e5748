import Foundation
import HTTPProviderKit
import ProviderAPI

/// What rendering a node's properties needs besides the node.
struct PropertyContext {
    let flavor: NextcloudTestServer.Configuration.Flavor
    let instanceID: String
    var owner: String
    var ownerDisplayName: String
    let store: FileStore
    let rootID: Int64
    /// Quota in bytes, `nil` for unlimited.
    let quota: Int64?
    /// Share types set on each file id.
    let shareTypes: [Int64: [Int]]
    /// `http://127.0.0.1:PORT`
    let baseURL: String
    /// The received share a node is reached through, `nil` in the user's own files.
    var share: StoredShare?
    /// `true` for the mount point of a received share.
    var mountRoot = false

    var isNextcloud: Bool { flavor == .nextcloud }

    /// The properties a PROPFIND without a body (or with `d:allprop`) answers, in Sabre's order.
    static let allprop: [QName] = [
        .d("getlastmodified"), .d("getcontentlength"), .d("resourcetype"), .d("quota-used-bytes"),
        .d("quota-available-bytes"), .d("getetag"), .d("getcontenttype"),
    ]

    /// Names Sabre refuses to change with PROPPATCH (403).
    static let protected: Set<QName> = [
        .d("getlastmodified"), .d("getcontentlength"), .d("getcontenttype"), .d("getetag"), .d("resourcetype"),
        .d("quota-used-bytes"), .d("quota-available-bytes"), .o("fileid"), .o("id"), .o("permissions"), .o("size"),
        .o("checksums"), .o("share-types"), .o("owner-id"), .o("owner-display-name"),
    ]

    /// The value of one property of a node of the user's tree, or `nil` (404).
    func value(_ name: QName, of node: FileNode) -> PropValue? {
        let folder = node.isFolder
        switch (name.namespace, name.local) {
        case (QName.dav, "getlastmodified"): return .text(HTTPDate.format(Date(timeIntervalSince1970: TimeInterval(node.mtime))))
        case (QName.dav, "getetag"): return .text("\"\(node.etag)\"")
        case (QName.dav, "getcontenttype"): return folder ? nil : .text(node.mimeType)
        case (QName.dav, "getcontentlength"): return folder ? nil : .text(String(node.data.count))
        case (QName.dav, "resourcetype"): return .xml(folder ? MultistatusWriter.collection : "")
        case (QName.dav, "quota-used-bytes"): return folder ? .text(String(store.size(of: node.id))) : nil
        case (QName.dav, "quota-available-bytes"): return folder ? .text(String(available)) : nil
        case (QName.dav, "displayname"): return isNextcloud ? .text(node.parent == nil ? owner : node.name) : nil
        case (QName.dav, "creationdate"): return isNextcloud ? .text(iso8601(node.creationTime)) : nil
        case (QName.oc, "fileid"): return .text(String(node.id))
        case (QName.oc, "id"): return .text(Identifiers.ocID(node.id, instance: instanceID))
        case (QName.oc, "permissions"): return .text(permissions(node))
        case (QName.oc, "size"): return .text(String(store.size(of: node.id)))
        case (QName.oc, "checksums"):
            guard !folder, let checksum = node.checksum, !checksum.isEmpty else { return nil }
            return .xml("<oc:checksum>\(XMLText.escape(checksum))</oc:checksum>")
        case (QName.oc, "favorite"): return .text(node.favorite ? "1" : "0")
        case (QName.oc, "share-types"):
            let types = shareTypes[node.id] ?? []
            return .xml(types.map { "<oc:share-type>\($0)</oc:share-type>" }.joined())
        case (QName.oc, "comments-unread"): return .text("0")
        case (QName.oc, "owner-id"): return .text(owner)
        case (QName.oc, "owner-display-name"): return .text(ownerDisplayName)
        case (QName.oc, "downloadURL"): return isNextcloud ? nil : .text("")
        case (QName.oc, "privatelink"): return .text("\(baseURL)/f/\(node.id)")
        case (QName.oc, "tags"): return isNextcloud ? .xml("") : nil
        case (QName.nc, "has-preview"):
            guard isNextcloud else { return nil }
            return .text(!folder && (node.mimeType.hasPrefix("text/") || node.mimeType.hasPrefix("image/")) ? "true" : "false")
        case (QName.ocs, "share-permissions"): return isNextcloud ? .text(String(share?.permissions ?? (folder ? 31 : 19))) : nil
        case (QName.nc, "mount-type"): return isNextcloud ? .text(share == nil ? "" : "shared") : nil
        case (QName.nc, "is-encrypted"): return isNextcloud && folder && share == nil ? .text("0") : nil
        case (QName.nc, "hidden"): return isNextcloud ? .text("false") : nil
        case (QName.nc, "is-mount-root"): return isNextcloud ? .text(mountRoot ? "true" : "false") : nil
        case (QName.nc, "reminder-due-date"), (QName.nc, "rich-workspace"), (QName.nc, "rich-workspace-file"):
            return isNextcloud ? .text("") : nil
        case (QName.nc, "note"): return isNextcloud ? .text(mountRoot ? share?.note ?? "" : "") : nil
        case (QName.nc, "sharees"), (QName.nc, "system-tags"): return isNextcloud ? .xml("") : nil
        case (QName.nc, "share-attributes"): return isNextcloud ? .text("[]") : nil
        case (QName.nc, "creation_time"): return isNextcloud ? .text(String(node.creationTime)) : nil
        case (QName.nc, "upload_time"): return isNextcloud ? .text(String(node.uploadTime)) : nil
        default:
            return node.deadProperties[name.clark].map { .xml($0) }
        }
    }

    /// ownCloud 10 leaves `oc:checksums` of a folder out of both propstats (as recorded).
    func isOmitted(_ name: QName, _ node: FileNode) -> Bool {
        !isNextcloud && node.isFolder && name == .o("checksums")
    }

    /// Free bytes: `-3` (unlimited) without a quota.
    var available: Int64 {
        guard let quota else { return -3 }
        return max(0, quota - store.size(of: rootID))
    }

    /// `RGDNVCK` / `RGDNVW` (Nextcloud), `RDNVCK` / `RDNVW` (ownCloud 10); the root cannot be
    /// deleted or renamed in Nextcloud but shows the same letters, as recorded.
    func permissions(_ node: FileNode) -> String {
        guard let share else {
            return isNextcloud ? (node.isFolder ? "RGDNVCK" : "RGDNVW") : (node.isFolder ? "RDNVCK" : "RDNVW")
        }
        // A received item: S, then what the share grants (the mount point can always be unshared and renamed).
        var letters = "S"
        if share.permissions & 16 != 0 { letters += "R" }
        if isNextcloud { letters += "G" }
        if mountRoot || share.permissions & 8 != 0 { letters += "D" }
        if mountRoot || share.permissions & 2 != 0 { letters += "NV" }
        if node.isFolder {
            if share.permissions & 4 != 0 { letters += "CK" }
        } else if share.permissions & 2 != 0 {
            letters += "W"
        }
        return letters
    }

    private func iso8601(_ time: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let text = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
        return text.hasSuffix("Z") ? String(text.dropLast()) + "+00:00" : text
    }
}

import Foundation

/// Writes Nuxeo Drive `FileSystemItem`s (`FileItem`/`FolderItem`) and their ids,
/// as recorded in `nuxeo-drive/change_summary.json`.
struct FileSystemItemWriter {
    static let topLevelID = "org.nuxeo.drive.service.impl.DefaultTopLevelFolderItemFactory#"
    static let syncRootPrefix = "defaultSyncRootFolderItemFactory#default#"
    static let defaultPrefix = "defaultFileSystemItemFactory#default#"

    /// The calling user (`userName`).
    let user: String

    /// `defaultSyncRootFolderItemFactory#default#<uid>` for a sync root, else
    /// `defaultFileSystemItemFactory#default#<uid>`.
    static func itemID(_ uid: String, isRoot: Bool) -> String {
        (isRoot ? syncRootPrefix : defaultPrefix) + uid
    }

    /// The item of `doc` seen through the sync root `root` (one of `doc.chain`);
    /// `nil` when Drive would not adapt the document (trashed, or a file without blob).
    func item(_ doc: DocumentSnapshot, root: String) -> NXJSON? {
        guard doc.isAdaptable, let rootIndex = doc.chain.firstIndex(of: root) else { return nil }
        let below = doc.chain[rootIndex...]
        let ids = below.map { Self.itemID($0, isRoot: $0 == root) }
        let id = ids.last ?? Self.itemID(doc.uid, isRoot: doc.uid == root)
        let parentID = ids.count > 1 ? ids[ids.count - 2] : Self.topLevelID
        let path = "/" + ([Self.topLevelID] + ids).joined(separator: "/")
        var members: [(String, NXJSON)] = [
            ("id", .string(id)),
            ("parentId", .string(parentID)),
            ("name", .string(doc.title)),
            ("folder", .bool(doc.isFolderish)),
            ("creator", doc.creator.map(NXJSON.string) ?? .null),
            ("lastContributor", doc.lastContributor.map(NXJSON.string) ?? .null),
            ("creationDate", doc.created.map(NXJSON.int) ?? .null),
            ("lastModificationDate", doc.modified.map(NXJSON.int) ?? .null),
            ("canRename", .bool(true)),
            ("canDelete", .bool(true)),
            ("lockInfo", .null),
            ("path", .string(path)),
            ("userName", .string(user)),
        ]
        if doc.isFolderish {
            members.append(("canCreateChild", .bool(true)))
            members.append(("canScrollDescendants", .bool(true)))
        } else {
            let filename = doc.blobFilename ?? doc.title
            members.append(("canUpdate", .bool(true)))
            members.append(("downloadURL", .string("nxfile/default/\(doc.uid)/blobholder:0/\(FormDecoding.encodeComponent(filename))")))
            members.append(("digestAlgorithm", .string("md5")))
            members.append(("digest", doc.blobDigest.map(NXJSON.string) ?? .null))
        }
        return .object(members)
    }
}

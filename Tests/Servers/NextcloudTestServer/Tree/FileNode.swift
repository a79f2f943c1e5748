import Foundation

/// One file or folder of a user's tree (or of the trash, detached from the tree).
struct FileNode: Sendable {
    var id: Int64
    var name: String
    var isFolder: Bool
    var parent: Int64?
    /// Child name → id (folders), by the name's exact bytes.
    var children: ExactChildren = [:]
    /// File content.
    var data = Data()
    var mtime: Int64
    var etag: String
    /// The `oc:checksums` text (`SHA1:… MD5:… ADLER32:…`), `nil` when none is stored.
    var checksum: String?
    var favorite = false
    var creationTime: Int64
    var uploadTime: Int64
    var mimeType: String
    /// Dead properties set with PROPPATCH: Clark name `{ns}local` → escaped inner XML.
    var deadProperties: [String: String] = [:]
}

/// A trashed file or folder: the root of a detached subtree.
struct TrashEntry: Sendable {
    var nodeID: Int64
    /// The name as trashed.
    var name: String
    /// The path the item was deleted from, relative to the user's root (`a/b.txt`).
    var originalLocation: String
    var deletionTime: Int64

    /// The name in the trash listing: `<name>.d<deletion time>` as Nextcloud names it.
    var trashName: String { "\(name).d\(deletionTime)" }
}

/// A chunked upload (chunking v2) in progress.
struct UploadSession: Sendable {
    var destination: String?
    /// Chunk name → bytes.
    var chunks: [String: Data] = [:]
    var mtime: Int64
    var etag: String
    var id: Int64
}

/// An older content of a file, kept when the file was overwritten (Nextcloud's files_versions).
struct FileVersion: Sendable {
    /// The version's name: the modification time of that content (Unix seconds).
    var revision: Int64
    var data: Data
    var mimeType: String
}

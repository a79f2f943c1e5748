import Foundation

/// One file or folder of a workspace.
struct StoredNode: Sendable {
    var isFolder: Bool
    var data: Data
    var mtime: Int64
    /// Octal permission string as `ls` shows it (`0600`, `0700`, `0755`, `0644`).
    var perms: String
    var inode: Int
    /// The `original_path` of the node's last update event (overwrite, rename,
    /// move); the search index keeps it, as Lucene does.
    var lastOriginalPath: String?
    /// For an item in the recycle bin: where it was deleted from.
    var recycledFrom: String?

    var size: Int { isFolder ? 0 : data.count }
}

import Foundation

/// PHP `stat()` arrays as `stat` answers them (numeric and named keys).
enum StatJSON {
    /// `subfolders` counts towards a folder's `nlink` (2 + subfolders).
    static func render(_ node: StoredNode, subfolders: Int = 0) -> String {
        let mode = (node.isFolder ? 0o040000 : 0o100000) + (Int(node.perms, radix: 8) ?? 0o600)
        let size = node.isFolder ? 4096 : node.size
        let blocks = (size + 4095) / 4096 * 8
        let nlink = node.isFolder ? 2 + subfolders : 1
        let values: [(String, Int)] = [
            ("dev", 65024), ("ino", node.inode), ("mode", mode), ("nlink", nlink), ("uid", 0), ("gid", 0), ("rdev", 0),
            ("size", size), ("atime", Int(node.mtime)), ("mtime", Int(node.mtime)), ("ctime", Int(node.mtime)),
            ("blksize", 4096), ("blocks", blocks),
        ]
        let numbered = values.enumerated().map { (String($0.offset), String($0.element.1)) }
        let named = values.map { ($0.0, String($0.1)) }
        return JSONText.object(numbered + named)
    }
}

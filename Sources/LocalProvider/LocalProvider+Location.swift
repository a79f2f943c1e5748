import Foundation
import ProviderAPI
import ProviderKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension LocalProvider {
    /// The folder's canonical absolute path on this machine (the root's real path, symbolic links
    /// and `..` resolved, then `path` below it), each existing folder on the way carrying its
    /// device and inode, so that a bind mount or a link to a folder is recognised too.
    package func location(of path: ItemPath) async throws -> TreeLocation {
        try await BlockingIO.run { try locationNow(of: path) }
    }

    /// ``location(of:)``'s system calls (`realpath`, an `lstat` per segment), on the calling
    /// thread (a thread of the blocking pool).
    private func locationNow(of path: ItemPath) throws -> TreeLocation {
        guard let real = realpath(root.path, nil) else { throw ProviderError.posix(errno, action: "realpath", path: root.path) }
        let rootPath = String(cString: real)
        free(real)
        var segments: [TreeLocation.Segment] = []
        var current = ""
        var exists = Self.identity(of: "/") != nil
        for name in TreeLocation.segments(ofPath: rootPath) + path.segments {
            current += "/" + name
            let id = exists ? Self.identity(of: current) : nil
            exists = id != nil
            segments.append(TreeLocation.Segment(name, id: id))
        }
        return TreeLocation(
            server: .localFileSystem, path: segments, caseInsensitive: !capabilities.names.caseSensitive)
    }

    /// `device:inode` of the item at the absolute `path` (not following a final link), or `nil` when there is none.
    private static func identity(of path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino)"
    }
}

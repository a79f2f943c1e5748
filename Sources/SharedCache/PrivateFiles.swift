import Foundation
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The cache's folders and files are the user's alone: folders it creates are `0700`, its
/// database (with its `-wal` and `-shm` files) and blobs `0600`.
///
/// SQLite gives a new `-wal` or `-shm` file the permissions of its database file, so making
/// `cache.sqlite` `0600` before the pool opens it covers both without touching the process's
/// umask (which is shared by every thread). A cache folder that already exists is left as it
/// is (it may be a folder the user chose and shares); what the cache puts inside is private.
enum PrivateFiles {
    /// Creates the folder at `url` as `0700` (its missing parents with the usual mode), unless it exists.
    static func makeFolder(_ url: URL) throws {
        let path = url.path
        var info = stat()
        if stat(path, &info) == 0 { return }
        let parent = url.deletingLastPathComponent()
        if stat(parent.path, &info) != 0 {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw ProviderError.posix(errno, action: "create", path: path) }
    }

    /// Creates the file at `path` as `0600` if it is missing, and takes the group's and others'
    /// permissions away from an existing one the user owns.
    static func makeFile(_ path: String) throws {
        let fd = path.withCString { open($0, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw ProviderError.posix(errno, action: "create", path: path) }
        defer { _ = close(fd) }
        restrict(fd)
    }

    /// Takes the group's and others' permissions away from an existing file the user owns; nothing if it is missing.
    static func restrictIfPresent(_ path: String) {
        let fd = path.withCString { open($0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { return }
        defer { _ = close(fd) }
        restrict(fd)
    }

    private static func restrict(_ fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o077 != 0 else { return }
        _ = fchmod(fd, info.st_mode & 0o700)
    }
}

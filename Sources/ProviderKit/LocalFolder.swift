internal import CProviderKitShims
import Foundation
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open local folder, for adapters that keep files on a local disk and must stay inside it.
///
/// Every call names a child of this folder and goes through the folder's descriptor (`openat`,
/// `fstatat`, `renameat`, …) without following a symbolic link at that name, so a walk from a
/// root opened once (``open(path:)``) with ``openFolder(at:)`` can never leave it: not through
/// `..` (`ItemPath` has none), not through a symbolic link, not through one swapped in while
/// the walk runs (the open fails instead). Like ``LocalFile``, it owns its descriptor and closes
/// it only when the last reference goes.
///
/// ```swift
/// let root = try LocalFolder.open(path: "/srv/files")
/// let reports = try root.openFolder(at: "/Reports")          // never through a symlink
/// let names = ListingPager.sorted(try reports.names())
/// let entry = try reports.entry(named: "q3.pdf")             // lstat, by descriptor
/// ```
package final class LocalFolder: Sendable {
    /// The descriptor.
    package let descriptor: Int32
    /// The path, for messages.
    package let path: String

    /// Takes ownership of `descriptor`, an open folder.
    package init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { _ = close(descriptor) }

    /// Opens the folder at `path`. Symbolic links in `path` itself are followed: this is the root
    /// a user chose, not a path from below it.
    package static func open(path: String) throws -> LocalFolder {
        let fd = Glibc_open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw ProviderError.posix(errno, action: "open the folder", path: path) }
        return LocalFolder(descriptor: fd, path: path)
    }

    /// The path of the child `name`, for messages.
    package func childPath(_ name: String) -> String { path.hasSuffix("/") ? path + name : path + "/" + name }

    /// What the folder itself is (`fstat`).
    package func entry() throws -> LocalEntry {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ProviderError.posix(errno, action: "stat", path: path) }
        return LocalEntry(info)
    }

    /// What the child `name` is, not following a symbolic link; `nil` when there is none.
    package func entry(named name: String) throws -> LocalEntry? {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw ProviderError.posix(errno, action: "stat", path: childPath(name))
        }
        return LocalEntry(info)
    }

    /// Opens the child folder `name`, never through a symbolic link.
    ///
    /// - Throws: `ProviderError.Code.notFound` when there is none, or it is a symbolic link or
    ///   anything but a folder or a file; `ProviderError.Code.conflict` when it is a file.
    package func openFolder(named name: String) throws -> LocalFolder {
        let fd = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw refusal(errno, name, wanted: "folder") }
        return LocalFolder(descriptor: fd, path: childPath(name))
    }

    /// Walks down `path` from this folder, as one ``openFolder(named:)`` per segment would: never
    /// through a symbolic link, never out of this folder.
    ///
    /// A path of several segments is opened in one call where the system can refuse every link
    /// and every step outside on the way (Linux `openat2`, `RESOLVE_BENEATH |
    /// RESOLVE_NO_SYMLINKS`), instead of one `openat` per segment: a copy of a tree reaches each
    /// file's folder in one system call, however deep. Anything that call refuses is walked
    /// segment by segment, which tells what is in the way.
    ///
    /// A path longer than the system takes in one call (`PATH_MAX`) is opened in pieces of
    /// whole segments, each below the folder the piece before opened: a tree thousands of
    /// folders deep is reached in a few calls, not one per segment.
    package func openFolder(at path: ItemPath) throws -> LocalFolder {
        let segments = path.segments
        var folder = self
        var start = 0
        while start < segments.count {
            // The longest run of segments from `start` whose joined length fits one call.
            var end = start
            var length = 0
            while end < segments.count, length + segments[end].utf8.count + 1 < Self.longestCallPath {
                length += segments[end].utf8.count + 1
                end += 1
            }
            if end - start > 1 {
                let relative = segments[start..<end].joined(separator: "/")
                let fd = cproviderkit_open_beneath(folder.descriptor, relative, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                if fd >= 0 {
                    folder = LocalFolder(descriptor: fd, path: folder.childPath(relative))
                    start = end
                    continue
                }
            }
            // One segment at a time: what the call refused, or a name as long as a call allows.
            folder = try folder.openFolder(named: segments[start])
            start += 1
        }
        return folder
    }

    /// The most bytes of a relative path given to one `openat2` call, below `PATH_MAX` (4,096).
    private static let longestCallPath = 4000

    /// Opens the regular file `name` for reading, never through a symbolic link; a FIFO or a
    /// device at the name is refused without blocking.
    ///
    /// - Throws: `ProviderError.Code.notFound` when there is no regular file or folder there,
    ///   `ProviderError.Code.invalidArgument` when it is a folder.
    package func openFile(named name: String) throws -> LocalFile {
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw refusal(errno, name, wanted: "file") }
        return try readable(fd, path: childPath(name))
    }

    /// Opens the regular file at `path` below this folder for reading in one system call where
    /// the system can refuse every symbolic link and every step outside on the way (Linux
    /// `openat2`, `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`); `nil` when that call is refused or
    /// missing, for any reason (then ``openFolder(at:)`` and ``openFile(named:)`` tell why).
    ///
    /// A copy of many files reads each with one walk of its path instead of two (its folder's,
    /// then its own), and no `stat` of the name before the open.
    ///
    /// - Throws: as ``openFile(named:)`` does for what it opened: `ProviderError.Code.invalidArgument`
    ///   for a folder, `ProviderError.Code.notFound` for anything but a regular file.
    package func openFile(at path: ItemPath) throws -> LocalFile? {
        guard !path.isRoot else { return nil }
        let relative = path.segments.joined(separator: "/")
        let fd = cproviderkit_open_beneath(descriptor, relative, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        return try readable(fd, path: childPath(relative))
    }

    /// The file of `descriptor` (which it takes over), opened without blocking, if it is a regular
    /// file: made blocking again for its reads, with what `fstat` said of it.
    private func readable(_ descriptor: Int32, path: String) throws -> LocalFile {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            _ = close(descriptor)
            throw ProviderError.posix(code, action: "stat", path: path)
        }
        let entry = LocalEntry(info)
        let file = LocalFile(descriptor: descriptor, path: path, checkedEntry: entry)
        switch entry.kind {
        case .file: break
        case .folder: throw ProviderError(.invalidArgument, "\(file.path) is a folder, not a file")
        default: throw ProviderError(.notFound, "\(file.path) is not a regular file")
        }
        let flags = fcntl(file.descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(file.descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return file
    }

    /// Creates the new file `name` for writing (`O_CREAT | O_EXCL | O_NOFOLLOW`), with `mode`
    /// less the umask; `ProviderError.Code.alreadyExists` if anything is at the name.
    package func createFile(named name: String, mode: mode_t = 0o666) throws -> LocalFile {
        let fd = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ProviderError.posix(errno, action: "create", path: childPath(name)) }
        return LocalFile(descriptor: fd, path: childPath(name))
    }

    /// Creates the folder `name`, with `mode` less the umask; `ProviderError.Code.alreadyExists`
    /// if anything is at the name.
    package func makeFolder(named name: String, mode: mode_t = 0o777) throws {
        guard mkdirat(descriptor, name, mode) == 0 else { throw ProviderError.posix(errno, action: "create the folder", path: childPath(name)) }
    }

    /// Where the symbolic link `name` points, as written in the link (never followed); `nil` when
    /// `name` is not a link or cannot be read.
    package func linkTarget(named name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { bytes -> Int in
            guard let base = bytes.baseAddress else { return -1 }
            return readlinkat(descriptor, name, base, bytes.count)
        }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in the folder, without `.` and `..`, in no order. A name that is not valid
    /// UTF-8 cannot be a Strata name and is left out.
    package func names() throws -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0 else { throw ProviderError.posix(errno, action: "list", path: path) }
        guard let stream = fdopendir(copy) else {
            let code = errno
            _ = close(copy)
            throw ProviderError.posix(code, action: "list", path: path)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw ProviderError.posix(errno, action: "list", path: path) }
                return names
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(validatingCString: $0)
                }
            }
            guard let name, name != ".", name != ".." else { continue }
            names.append(name)
        }
    }

    /// Removes the file or symbolic link `name` (a link itself, never its target).
    package func removeFile(named name: String) throws {
        guard unlinkat(descriptor, name, 0) == 0 else { throw ProviderError.posix(errno, action: "remove", path: childPath(name)) }
    }

    /// Removes the folder `name` and everything in it, depth first, never following a symbolic
    /// link (links are removed as links). Honours cancellation between folders; the system calls
    /// run on the blocking thread pool (``BlockingIO``), one hop per folder.
    package func removeTree(named name: String) async throws {
        // One hop to the blocking pool per folder: its files go, its folders are gathered.
        let (child, folders) = try await BlockingIO.run {
            let child = try self.openFolder(named: name)
            var folders: [String] = []
            for entryName in try child.names() {
                if try child.entry(named: entryName)?.kind == .folder {
                    folders.append(entryName)
                } else {
                    try child.removeFile(named: entryName)
                }
            }
            return (child, folders)
        }
        for folder in folders {
            try Task.checkCancellation()
            try await child.removeTree(named: folder)
        }
        try await BlockingIO.run {
            guard unlinkat(self.descriptor, name, AT_REMOVEDIR) == 0 else { throw ProviderError.posix(errno, action: "remove", path: self.childPath(name)) }
        }
    }

    /// Renames the child `name` to `newName` in `folder`, replacing a file there atomically.
    package func rename(_ name: String, to folder: LocalFolder, as newName: String) throws {
        guard renameat(descriptor, name, folder.descriptor, newName) == 0 else {
            throw ProviderError.posix(errno, action: "rename \(childPath(name)) to", path: folder.childPath(newName))
        }
    }

    /// Gives the file `name` a second name `newName` in `folder`, only if nothing is there:
    /// `ProviderError.Code.alreadyExists` otherwise, decided atomically by the file system.
    package func link(_ name: String, to folder: LocalFolder, as newName: String) throws {
        guard linkat(descriptor, name, folder.descriptor, newName, 0) == 0 else {
            throw ProviderError.posix(errno, action: "create", path: folder.childPath(newName))
        }
    }

    /// Whether this process may read (`R_OK`), write (`W_OK`) or search (`X_OK`) the child
    /// `name`, as `access(2)` says with the effective ids.
    package func allows(_ mode: Int32, named name: String) -> Bool {
        faccessat(descriptor, name, mode, AT_EACCESS) == 0
    }

    /// Whether this process may read, write or search the folder itself.
    package func allows(_ mode: Int32) -> Bool {
        faccessat(descriptor, ".", mode, AT_EACCESS) == 0
    }

    /// Flushes the folder's entries (a rename into it) to stable storage.
    package func sync() throws {
        guard fsync(descriptor) == 0 else { throw ProviderError.posix(errno, action: "sync", path: path) }
    }

    /// The space of the file system holding the folder, in bytes: its size, what is used, and
    /// what is still available to this user.
    package func space() throws -> (total: Int64, used: Int64, available: Int64) {
        var info = statvfs()
        guard fstatvfs(descriptor, &info) == 0 else { throw ProviderError.posix(errno, action: "read the space of", path: path) }
        let unit = Int64(info.f_frsize)
        let total = Int64(info.f_blocks) * unit
        return (total, total - Int64(info.f_bfree) * unit, Int64(info.f_bavail) * unit)
    }

    /// The error for a failed open of `name` that was meant to be a `wanted` (`"file"` or
    /// `"folder"`): what is really at the name decides it.
    private func refusal(_ code: Int32, _ name: String, wanted: String) -> ProviderError {
        guard code == ELOOP || code == ENOTDIR || code == ENXIO else { return ProviderError.posix(code, action: "open", path: childPath(name)) }
        switch (try? entry(named: name))?.kind {
        case .file?: return ProviderError(.conflict, "\(childPath(name)) is a file, not a \(wanted)")
        case .folder?: return ProviderError(.invalidArgument, "\(childPath(name)) is a folder, not a \(wanted)")
        case .symbolicLink?: return ProviderError(.notFound, "\(childPath(name)) is a symbolic link, which is not followed")
        default: return ProviderError(.notFound, "\(childPath(name)) is not a \(wanted)")
        }
    }
}

@inline(__always) private func Glibc_open(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }

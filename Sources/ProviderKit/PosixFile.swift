import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thin owner of a POSIX file descriptor, for large sequential I/O without Foundation's buffering;
/// the sinks and sources here and SharedCache's blob store write and read through it. Its calls
/// block: the sinks and sources make them through ``BlockingIO``.
///
/// The descriptor is behind a lock that every use and the close hold: a close never runs in the
/// middle of a read or a write, and no call after the close reaches a descriptor number the system
/// may have given to another file since (it fails instead). The lock is uncontended in the usual
/// one-reader or one-writer use, so it costs nothing per chunk next to the system call.
package final class PosixFile: Sendable {
    /// The open descriptor, or -1 once closed.
    private let descriptor: NIOLockedValueBox<Int32>
    package let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = NIOLockedValueBox(descriptor)
        self.path = path
    }

    deinit { closeNow() }

    /// Runs `body` with the open descriptor, holding the lock; a closed file is an error.
    func withDescriptor<T>(_ action: String, _ body: (Int32) throws -> T) throws -> T {
        try descriptor.withLockedValue { fd in
            guard fd >= 0 else { throw ProviderError(.invalidArgument, "cannot \(action) \(path): the file is closed") }
            return try body(fd)
        }
    }

    static func errorMessage(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    package static func providerError(_ action: String, _ path: String, _ code: Int32 = errno) -> ProviderError {
        ProviderError.posix(code, action: action, path: path)
    }

    package static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) throws -> PosixFile {
        let fd = path.withCString { Glibc_open($0, flags | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw providerError("open", path) }
        return PosixFile(descriptor: fd, path: path)
    }

    /// Opens an existing regular file without following a symlink at `path`: a symlink fails
    /// (`ELOOP`), and anything but a regular file (a FIFO, a device, a folder) is refused.
    static func openRegular(_ path: String, flags: Int32) throws -> PosixFile {
        // O_NONBLOCK keeps a FIFO planted at the name from blocking the open; it does not affect regular files.
        let fd = path.withCString { Glibc_open($0, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0) }
        guard fd >= 0 else {
            if errno == ELOOP { throw ProviderError(.invalidArgument, "cannot open \(path): it is a symbolic link") }
            throw providerError("open", path)
        }
        let file = PosixFile(descriptor: fd, path: path)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw providerError("stat", path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ProviderError(.invalidArgument, "cannot open \(path): it is not a regular file")
        }
        let plain = fcntl(fd, F_GETFL)
        if plain >= 0 { _ = fcntl(fd, F_SETFL, plain & ~O_NONBLOCK) }
        return file
    }

    /// Creates a new file at `path`, never opening anything that was there: a stale regular
    /// file or a symlink at the name is removed first (`unlink` removes the link itself, never
    /// its target), anything else there (a folder, a FIFO, a device) is refused, and the file is
    /// then created with `O_CREAT | O_EXCL | O_NOFOLLOW`, so a name planted between the two steps
    /// makes the open fail rather than be written through.
    static func createFresh(_ path: String, mode: mode_t) throws -> PosixFile {
        var info = stat()
        if lstat(path, &info) == 0 {
            let type = info.st_mode & S_IFMT
            guard type == S_IFREG || type == S_IFLNK else {
                throw ProviderError(.alreadyExists, "cannot create \(path): something that is not a file is in the way")
            }
            guard unlink(path) == 0 || errno == ENOENT else { throw providerError("remove", path) }
        }
        return try open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode)
    }

    /// The whole content of the small regular file at `path`, read without following a symlink;
    /// `nil` if there is none, it is not a regular file, or it is longer than `limit` bytes.
    static func readSmallRegular(_ path: String, limit: Int = 4096) -> [UInt8]? {
        guard let file = try? openRegular(path, flags: O_RDONLY), let size = try? file.size(), size <= limit,
            let buffer = try? file.read(count: limit + 1, at: 0, allocator: ByteBufferAllocator()),
            buffer.readableBytes <= limit
        else { return nil }
        return Array(buffer.readableBytesView)
    }

    /// The size of the regular file at `path`, not following a symlink; `nil` for anything else.
    /// With `soleLink`, a file with another hard link (a name elsewhere for the same bytes) is
    /// `nil` too: writing to it would change that other file.
    package static func regularFileSize(atPath path: String, soleLink: Bool = false) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        if soleLink, info.st_nlink != 1 { return nil }
        return Int64(info.st_size)
    }

    /// How many hard links the open file has (1 when no other name shares its bytes).
    func linkCount() throws -> Int {
        try withDescriptor("stat") { fd in
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw PosixFile.providerError("stat", path) }
            return Int(info.st_nlink)
        }
    }

    /// Whether anything at all (a dangling symlink too) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    package func write(_ buffer: ByteBuffer) throws {
        try withDescriptor("write") { fd in try Self.writeAll(buffer, to: fd, path: path) }
    }

    /// Writes all the readable bytes of `buffer` to `fd` at its current offset, again after an
    /// interruption (`EINTR`); a failure is `ProviderError.posix(errno, action: action, path: path)`.
    /// The one write loop of the package: `write(_:)`, `DescriptorSink` and ProviderKit's `LocalFile` use it.
    package static func writeAll(_ buffer: ByteBuffer, to fd: Int32, action: String = "write", path: String) throws {
        try buffer.withUnsafeReadableBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = Glibc_write(fd, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw providerError(action, path)
                }
                offset += written
            }
        }
    }

    /// Reads up to `count` bytes at `offset` of `fd` (`pread`, again after an interruption),
    /// appending them to `buffer`; nothing appended means the end of the file. The one read
    /// loop of the package: `read(count:at:into:)` and ProviderKit's `LocalFile` use it.
    package static func read(_ fd: Int32, count: Int, at offset: Int64, appendingTo buffer: inout ByteBuffer, path: String) throws {
        try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw -> Int in
            while true {
                let n = pread(fd, raw.baseAddress, count, off_t(offset))
                if n >= 0 { return n }
                if errno != EINTR { throw providerError("read", path) }
            }
        }
    }

    /// Reads up to `count` bytes at `offset`; an empty buffer means end of file.
    func read(count: Int, at offset: Int64, allocator: ByteBufferAllocator) throws -> ByteBuffer {
        var buffer = allocator.buffer(capacity: count)
        try read(count: count, at: offset, into: &buffer)
        return buffer
    }

    /// Reads up to `count` bytes at `offset` into `buffer`, emptied first (its storage is reused
    /// when nothing else holds it); an empty buffer means end of file.
    func read(count: Int, at offset: Int64, into buffer: inout ByteBuffer) throws {
        buffer.clear()
        try withDescriptor("read") { fd in try Self.read(fd, count: count, at: offset, appendingTo: &buffer, path: path) }
    }

    /// Reads the file from its start to its end in pieces of up to `size` bytes, handing each to `body`.
    package func readChunks(of size: Int, _ body: (ByteBuffer) throws -> Void) throws {
        let allocator = ByteBufferAllocator()
        var offset: Int64 = 0
        while true {
            let chunk = try read(count: size, at: offset, allocator: allocator)
            if chunk.readableBytes == 0 { return }
            offset += Int64(chunk.readableBytes)
            try body(chunk)
        }
    }

    /// Takes an exclusive advisory lock (`flock`); false when `wait` is false and another
    /// holder has it, or when the file is closed.
    ///
    /// A waiting `flock` holds the descriptor's lock meanwhile: a `closeNow()` from elsewhere
    /// waits for it (the file lock is released with the descriptor anyway).
    package func lock(wait: Bool) -> Bool {
        (try? withDescriptor("lock") { fd in flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) == 0 }) ?? false
    }

    func size() throws -> Int64 {
        try withDescriptor("stat") { fd in
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw PosixFile.providerError("stat", path) }
            return Int64(info.st_size)
        }
    }

    /// Flushes the file's bytes (and its size) to stable storage.
    package func sync() throws {
        try withDescriptor("sync") { fd in
            #if canImport(Darwin)
                let result = fsync(fd)
            #else
                let result = fdatasync(fd)
            #endif
            guard result == 0 else { throw PosixFile.providerError("sync", path) }
        }
    }

    /// Closes the descriptor, once; a later use fails.
    package func closeNow() {
        descriptor.withLockedValue { fd in
            if fd >= 0 { _ = close(fd) }
            fd = -1
        }
    }

    static func fileSize(atPath path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    package static func remove(_ path: String) { _ = unlink(path) }

    /// Renames `from` to `to`, replacing whatever is at `to`: `rename(2)` replaces a symlink
    /// there with the file itself, it never writes through it.
    package static func rename(_ from: String, _ to: String) throws {
        guard Glibc_rename(from, to) == 0 else { throw providerError("rename", to) }
    }

    /// Links `from` under `to` only if `to` does not exist, then removes `from`. `link(2)` fails
    /// with `EEXIST` for anything at `to`, a symlink (even a dangling one) included, and does not follow it.
    static func renameNoReplace(_ from: String, _ to: String) throws {
        guard link(from, to) == 0 else { throw providerError("create", to) }
        _ = unlink(from)
    }
}

// Unambiguous names for libc functions that PosixFile's methods shadow.
@inline(__always) private func Glibc_open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
@inline(__always) private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
@inline(__always) private func Glibc_rename(_ from: String, _ to: String) -> Int32 {
    rename(from, to)
}

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

/// A POSIX file descriptor the blob store writes and reads through, and the few file-system calls it needs.
///
/// The descriptor is behind a lock that every use and the close hold, so a close never runs in
/// the middle of a read or a write and nothing reaches the descriptor number after it is closed.
final class BlobFile: Sendable {
    /// The open descriptor, or -1 once closed.
    private let descriptor: NIOLockedValueBox<Int32>
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = NIOLockedValueBox(descriptor)
        self.path = path
    }

    deinit { close() }

    /// Runs `body` with the open descriptor, holding the lock; a closed file is an error.
    private func withDescriptor<T>(_ action: String, _ body: (Int32) throws -> T) throws -> T {
        try descriptor.withLockedValue { fd in
            guard fd >= 0 else { throw ProviderError(.invalidArgument, "blob store: cannot \(action) \(path): the file is closed") }
            return try body(fd)
        }
    }

    /// Opens `path` with `flags` (`O_CLOEXEC` is added).
    static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) throws -> BlobFile {
        #if canImport(Darwin)
            let fd = path.withCString { Darwin.open($0, flags | O_CLOEXEC, mode) }
        #else
            let fd = path.withCString { Glibc.open($0, flags | O_CLOEXEC, mode) }
        #endif
        guard fd >= 0 else { throw error("open", path) }
        return BlobFile(descriptor: fd, path: path)
    }

    /// Writes all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        try withDescriptor("write") { fd in
            var offset = 0
            while offset < bytes.count {
                #if canImport(Darwin)
                    let written = Darwin.write(fd, base + offset, bytes.count - offset)
                #else
                    let written = Glibc.write(fd, base + offset, bytes.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Self.error("write", path)
                }
                offset += written
            }
        }
    }

    /// Writes the readable bytes of `buffer`.
    func write(_ buffer: ByteBuffer) throws {
        try buffer.withUnsafeReadableBytes { try write($0) }
    }

    /// Reads up to `count` bytes; an empty buffer at the end of the file.
    func read(count: Int) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        try withDescriptor("read") { fd in
            try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw -> Int in
                while true {
                    #if canImport(Darwin)
                        let n = Darwin.read(fd, raw.baseAddress, count)
                    #else
                        let n = Glibc.read(fd, raw.baseAddress, count)
                    #endif
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw Self.error("read", path)
                    }
                    return n
                }
            }
        }
        return buffer
    }

    /// Flushes the file to stable storage.
    func sync() throws {
        try withDescriptor("sync") { fd in
            guard fsync(fd) == 0 else { throw Self.error("sync", path) }
        }
    }

    /// Takes an exclusive advisory lock; false when `wait` is false and another holder has it,
    /// or when the file is closed.
    ///
    /// A waiting `flock` holds the descriptor's lock meanwhile: a ``close()`` from elsewhere waits
    /// for it (the file lock is released with the descriptor anyway).
    func lock(wait: Bool) -> Bool {
        (try? withDescriptor("lock") { fd in flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) == 0 }) ?? false
    }

    /// Closes the descriptor (once).
    func close() {
        descriptor.withLockedValue { fd in
            guard fd >= 0 else { return }
            #if canImport(Darwin)
                _ = Darwin.close(fd)
            #else
                _ = Glibc.close(fd)
            #endif
            fd = -1
        }
    }

    /// Renames `from` to `to`, replacing it.
    static func rename(_ from: String, _ to: String) throws {
        #if canImport(Darwin)
            let result = Darwin.rename(from, to)
        #else
            let result = Glibc.rename(from, to)
        #endif
        guard result == 0 else { throw error("rename", from) }
    }

    /// Removes a file; a missing file is not an error.
    static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// The size of the regular file at `path`, or nil when there is none.
    static func size(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    static func error(_ action: String, _ path: String, _ code: Int32 = errno) -> ProviderError {
        let kind: ProviderError.Code
        switch code {
        case ENOENT, ENOTDIR: kind = .notFound
        case EACCES, EPERM, EROFS: kind = .forbidden
        case ENOSPC, EDQUOT: kind = .quotaExceeded
        default: kind = .server
        }
        return ProviderError(kind, "blob store: cannot \(action) \(path): \(String(cString: strerror(code)))")
    }
}

import Foundation
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
final class BlobFile: @unchecked Sendable {
    private var descriptor: Int32
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close() }

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
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
                let written = Darwin.write(descriptor, base + offset, bytes.count - offset)
            #else
                let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.error("write", path)
            }
            offset += written
        }
    }

    /// Writes the readable bytes of `buffer`.
    func write(_ buffer: ByteBuffer) throws {
        try buffer.withUnsafeReadableBytes { try write($0) }
    }

    /// Reads up to `count` bytes; an empty buffer at the end of the file.
    func read(count: Int) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw -> Int in
            while true {
                #if canImport(Darwin)
                    let n = Darwin.read(descriptor, raw.baseAddress, count)
                #else
                    let n = Glibc.read(descriptor, raw.baseAddress, count)
                #endif
                if n < 0 {
                    if errno == EINTR { continue }
                    throw Self.error("read", path)
                }
                return n
            }
        }
        return buffer
    }

    /// Flushes the file to stable storage.
    func sync() throws {
        guard fsync(descriptor) == 0 else { throw Self.error("sync", path) }
    }

    /// Takes an exclusive advisory lock; false when `wait` is false and another holder has it.
    func lock(wait: Bool) -> Bool {
        flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) == 0
    }

    /// Closes the descriptor (once).
    func close() {
        guard descriptor >= 0 else { return }
        #if canImport(Darwin)
            _ = Darwin.close(descriptor)
        #else
            _ = Glibc.close(descriptor)
        #endif
        descriptor = -1
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

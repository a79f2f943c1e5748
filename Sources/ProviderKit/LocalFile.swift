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

/// An open local file: owns its descriptor, which is closed when the last reference goes.
///
/// The descriptor is never closed before that, so no call can race a close and reach a
/// descriptor number the process has reused: this is why the type can be `Sendable` with
/// nothing but `let` properties. Open one with ``LocalFolder/openFile(named:)`` (never through
/// a symbolic link) and read a range with ``chunks(from:to:chunkSize:)``, whose reads run on
/// swift-nio's blocking thread pool (``BlockingIO``). The other methods make their system call
/// on the calling thread: call them through ``BlockingIO/run(_:)`` from a task.
///
/// ```swift
/// let file = try folder.openFile(named: "q3.pdf")
/// for try await piece in file.chunks(from: 0, to: try file.entry().size) { … }
/// ```
package final class LocalFile: Sendable {
    /// The descriptor.
    package let descriptor: Int32
    /// The path, for messages.
    package let path: String
    /// What `fstat` said when the file was opened and found to be a regular file (by
    /// ``LocalFolder/openFile(named:)`` and ``LocalFolder/openFile(at:)``), so a reader that wants
    /// its size and times need not ask again; `nil` for a file opened otherwise. ``entry()`` asks anew.
    package let checkedEntry: LocalEntry?

    /// Takes ownership of `descriptor`; `checkedEntry` is what `fstat` said of it, if known.
    package init(descriptor: Int32, path: String, checkedEntry: LocalEntry? = nil) {
        self.descriptor = descriptor
        self.path = path
        self.checkedEntry = checkedEntry
    }

    deinit { _ = close(descriptor) }

    /// What `fstat` says about the open file.
    package func entry() throws -> LocalEntry {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ProviderError.posix(errno, action: "stat", path: path) }
        return LocalEntry(info)
    }

    /// Reads up to `count` bytes at `offset`; an empty buffer means the end of the file.
    package func read(count: Int, at offset: Int64, allocator: ByteBufferAllocator = ByteBufferAllocator()) throws -> ByteBuffer {
        var buffer = allocator.buffer(capacity: count)
        try PosixFile.read(descriptor, count: count, at: offset, appendingTo: &buffer, path: path)
        return buffer
    }

    /// Writes all of `buffer` at the current offset.
    package func write(_ buffer: ByteBuffer) throws {
        try PosixFile.writeAll(buffer, to: descriptor, path: path)
    }

    /// Flushes the file's data to stable storage.
    package func sync() throws {
        guard fsync(descriptor) == 0 else { throw ProviderError.posix(errno, action: "sync", path: path) }
    }

    /// Sets the modified (and access) time.
    package func setModified(_ date: Date) throws {
        let seconds = UnixTime.clampedSeconds(date)
        let nanoseconds = Int(((date.timeIntervalSince1970 - Double(seconds)) * 1e9).rounded()).clamped(to: 0...999_999_999)
        var times = [timespec(tv_sec: time_t(seconds), tv_nsec: nanoseconds), timespec(tv_sec: time_t(seconds), tv_nsec: nanoseconds)]
        guard futimens(descriptor, &times) == 0 else { throw ProviderError.posix(errno, action: "set the modified time of", path: path) }
    }

    /// The bytes `start..<end` as a sequence of pieces of up to `chunkSize` bytes, read on
    /// demand. A file that ends early throws `ProviderError.Code.conflict` (it shrank while read).
    package func chunks(from start: Int64, to end: Int64, chunkSize: Int = 256 << 10) -> Chunks {
        Chunks(file: self, start: start, end: end, chunkSize: max(1, chunkSize))
    }

    /// Pieces of a range of a ``LocalFile``; see ``LocalFile/chunks(from:to:chunkSize:)``.
    package struct Chunks: AsyncSequence, Sendable {
        package typealias Element = ByteBuffer
        let file: LocalFile
        let start: Int64
        let end: Int64
        let chunkSize: Int

        package struct AsyncIterator: AsyncIteratorProtocol {
            let file: LocalFile
            var position: Int64
            let end: Int64
            let chunkSize: Int
            let allocator = ByteBufferAllocator()

            package mutating func next() async throws -> ByteBuffer? {
                guard position < end else { return nil }
                try Task.checkCancellation()
                // Each piece is read on the blocking thread pool, one hop per piece.
                let (file, count, at, allocator) = (file, Int(Swift.min(Int64(chunkSize), end - position)), position, allocator)
                let piece = try await BlockingIO.run { try file.read(count: count, at: at, allocator: allocator) }
                guard piece.readableBytes > 0 else {
                    throw ProviderError(.conflict, "\(file.path) shrank while it was read: it ends at \(position), not \(end)")
                }
                position += Int64(piece.readableBytes)
                return piece
            }
        }

        package func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(file: file, position: start, end: end, chunkSize: chunkSize)
        }
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}

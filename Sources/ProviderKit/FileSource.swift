import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Uploads a local file, read in large pieces on demand.
///
/// Every read runs on swift-nio's blocking thread pool (`BlockingIO`), one hop per piece of
/// `chunkSize` bytes (or one for a small body read whole), never on the caller's thread.
public struct FileSource: UploadSource {
    /// The file.
    public let url: URL
    /// The size of the file when the source was made.
    public let length: Int64?
    /// The size of each read.
    package let chunkSize: Int
    public var isReplayable: Bool { true }

    /// A source for the file at `url`.
    ///
    /// - Throws: `ProviderError.Code.notFound` if the file does not exist.
    public init(url: URL, chunkSize: Int = 256 << 10) throws {
        guard let size = PosixFile.fileSize(atPath: url.path) else {
            throw ProviderError(.notFound, "no file at \(url.path)")
        }
        self.url = url
        self.length = size
        self.chunkSize = chunkSize
    }

    public func makeStream() throws -> UploadStream {
        let file = try PosixFile.open(url.path, flags: O_RDONLY)
        let reader = FileReader(file: file, chunkSize: chunkSize, length: length ?? 0)
        return UploadStream { try await reader.next() }
    }

    /// The file from byte `offset` on.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when `offset` is negative or past the end.
    public func makeStream(from offset: Int64) throws -> UploadStream? {
        let total = length ?? 0
        guard offset >= 0, offset <= total else {
            throw ProviderError(.invalidArgument, "offset \(offset) is outside the \(total) bytes of \(url.path)")
        }
        let file = try PosixFile.open(url.path, flags: O_RDONLY)
        let reader = FileReader(file: file, chunkSize: chunkSize, length: total, offset: offset)
        return UploadStream { try await reader.next() }
    }
}

extension FileSource: WholeBodySource {
    /// The whole file in one buffer, opened, read and closed in one hop to the blocking thread pool.
    package func wholeBody() async throws -> ByteBuffer {
        let (path, want) = (url.path, Int(length ?? 0))
        return try await BlockingIO.run {
            let file = try PosixFile.open(path, flags: O_RDONLY)
            defer { file.closeNow() }
            var buffer = ByteBufferAllocator().buffer(capacity: want)
            // Read straight into the one buffer (no piece allocated and copied per read).
            try file.withDescriptor("read") { fd in
                while buffer.readableBytes < want {
                    let before = buffer.readableBytes
                    try PosixFile.read(fd, count: want - before, at: Int64(before), appendingTo: &buffer, path: path)
                    if buffer.readableBytes == before { throw ProviderError(.conflict, "\(path) shrank while it was being uploaded") }
                }
            }
            return buffer
        }
    }
}

/// Reads a file piece by piece into a small ring of buffers: once the transport has written a
/// piece and let go of it, its storage is filled again instead of freed and allocated anew, so a
/// long upload does not churn the allocator (whose freed pieces glibc kept, growing the process).
private actor FileReader {
    let file: PosixFile
    let chunkSize: Int
    let length: Int64
    var offset: Int64 = 0
    let allocator = ByteBufferAllocator()
    var ring: [ByteBuffer] = []
    var slot = 0
    static let ringSize = 8

    init(file: PosixFile, chunkSize: Int, length: Int64, offset: Int64 = 0) {
        self.file = file
        self.chunkSize = chunkSize
        self.length = length
        self.offset = offset
    }

    func next() async throws -> ByteBuffer? {
        guard offset < length else {
            let file = file
            await BlockingIO.cleanUp { file.closeNow() }
            return nil
        }
        try Task.checkCancellation()
        let want = Int(min(Int64(chunkSize), length - offset))
        var buffer: ByteBuffer
        if ring.count < Self.ringSize {
            buffer = allocator.buffer(capacity: chunkSize)
            ring.append(ByteBuffer())
            slot = ring.count - 1
        } else {
            slot = (slot + 1) % Self.ringSize
            buffer = ring[slot]
            ring[slot] = ByteBuffer()  // let go of the ring's reference, so the buffer can be unique again
        }
        // The buffer moves to the pool thread and back through a box that lets go of it, so the
        // read fills its storage in place when nothing else holds it.
        let (file, at, box) = (file, offset, NIOLockedValueBox(buffer))
        buffer = ByteBuffer()
        buffer = try await BlockingIO.run {
            var piece = box.withLockedValue { held -> ByteBuffer in
                defer { held = ByteBuffer() }
                return held
            }
            try file.read(count: want, at: at, into: &piece)
            return piece
        }
        ring[slot] = buffer
        if buffer.readableBytes == 0 {
            throw ProviderError(.conflict, "\(file.path) shrank while it was being uploaded")
        }
        offset += Int64(buffer.readableBytes)
        return buffer
    }
}


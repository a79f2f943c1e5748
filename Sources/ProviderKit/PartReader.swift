import NIOCore
import ProviderAPI

/// Reads an upload source in parts of a fixed size, for uploads sent in chunks or parts.
///
/// Each ``Part`` is `partSize` bytes (the last one what remains of the length). With `only`,
/// just the parts of those indexes are handed over: the bytes of the others are read and
/// dropped, and reading stops after the last part wanted. Memory stays at one part whatever
/// the size of the source's own pieces.
///
/// Every part is read into the same buffer: when the caller (and the transport) have let go of
/// the last part, the next one fills its storage again instead of a fresh allocation (with
/// glibc's fixed mmap threshold, every fresh multi-megabyte buffer is a new mapping and a page
/// fault per page). A part still held elsewhere is never overwritten: the buffer is then copied
/// on write, as any `ByteBuffer`.
///
/// ```swift
/// var reader = try PartReader(source: source, length: length, partSize: 8 << 20)
/// while let part = try await reader.next() {
///     try await sendChunk(part.bytes, index: part.index)
/// }
/// try await reader.expectEnd()   // where a source longer than announced is an error too
/// ```
public struct PartReader: Sendable {
    /// One part of the source.
    public struct Part: Sendable {
        /// The part's index, from 0.
        public var index: Int
        /// Where the part starts in the source.
        public var offset: Int64
        /// The part's bytes.
        public var bytes: ByteBuffer
    }

    /// How many bytes the source is read for.
    package let length: Int64
    /// The size of every part but the last.
    package let partSize: Int

    private var iterator: UploadStream.AsyncIterator
    private let only: Set<Int>?
    private let last: Int
    private var position: Int64 = 0
    private var pending = ByteBuffer()
    private var current: ByteBuffer

    /// A reader of the first `length` bytes of a new stream of `source`, in parts of `partSize`
    /// bytes; with `only`, just the parts of those indexes are handed over.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when `partSize` is not positive or
    ///   `length` is negative; the source's error when it cannot make a stream.
    public init(source: any UploadSource, length: Int64, partSize: Int, only: Set<Int>? = nil) throws {
        guard partSize > 0, length >= 0 else {
            throw ProviderError(.invalidArgument, "a part reader needs a positive part size and length, not \(partSize) and \(length)")
        }
        try self.init(stream: source.makeStream(), from: 0, length: length, partSize: partSize, only: only)
    }

    /// A reader of the parts of `source` from byte `offset` (a multiple of `partSize`) to
    /// `length`, read from the source's `makeStream(from:)`; `nil` when the source cannot start
    /// there. The first part handed over is the one at `offset`; with `only`, just those indexes.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when `offset` is not a part boundary within
    ///   `length`; the source's error when it cannot make a stream.
    package init?(source: any UploadSource, from offset: Int64, length: Int64, partSize: Int, only: Set<Int>? = nil) throws {
        guard partSize > 0, offset >= 0, offset <= length, offset % Int64(partSize) == 0 || offset == length else {
            throw ProviderError(.invalidArgument, "a part reader cannot start at byte \(offset) of \(length) in parts of \(partSize)")
        }
        guard let stream = try source.makeStream(from: offset) else { return nil }
        try self.init(stream: stream, from: offset, length: length, partSize: partSize, only: only)
    }

    private init(stream: UploadStream, from offset: Int64, length: Int64, partSize: Int, only: Set<Int>?) throws {
        guard partSize > 0, length >= 0 else {
            throw ProviderError(.invalidArgument, "a part reader needs a positive part size and length, not \(partSize) and \(length)")
        }
        iterator = stream.makeAsyncIterator()
        self.length = length
        self.partSize = partSize
        self.only = only
        position = offset
        last = only?.max() ?? Int(max(0, length - 1) / Int64(partSize))
        current = ByteBufferAllocator().buffer(capacity: Int(min(Int64(partSize), max(0, length - offset))))
    }

    /// The next wanted part, or `nil` after the last one.
    ///
    /// - Throws: `ProviderError.Code.conflict` when the source ends before the declared length;
    ///   `CancellationError` when the task is cancelled; the source's own errors.
    public mutating func next() async throws -> Part? {
        let size = Int64(partSize)
        current.clear()
        while position < length {
            if pending.readableBytes == 0 {
                try Task.checkCancellation()
                guard let piece = try await iterator.next() else {
                    throw ProviderError(.conflict, "the source ended after \(position) of its \(length) bytes")
                }
                pending = piece
                continue
            }
            let index = Int(position / size)
            if index > last { return nil }
            let take = min(Int(size - position % size), pending.readableBytes, Int(length - position))
            guard var slice = pending.readSlice(length: take) else { return nil }
            let wanted = only?.contains(index) ?? true
            if wanted { current.writeBuffer(&slice) }
            position += Int64(take)
            if pending.readableBytes == 0 { pending = ByteBuffer() }  // let go of the source's buffer
            if position % size == 0 || position == length {
                if wanted { return Part(index: index, offset: Int64(index) * size, bytes: current) }
                current.clear()
            }
        }
        return nil
    }

    /// Checks that the source has nothing beyond its length; call it once ``next()`` returned
    /// `nil` with every part wanted (no `only`), so that all of the length was read.
    ///
    /// - Throws: `ProviderError.Code.conflict` when the source gives more bytes than its length.
    public mutating func expectEnd() async throws {
        var extra = Int64(pending.readableBytes)
        pending = ByteBuffer()
        while let piece = try await iterator.next() {
            extra += Int64(piece.readableBytes)
            if extra > 0 { break }
        }
        if extra > 0 {
            throw ProviderError(.conflict, "the source gave more than the \(length) bytes it announced")
        }
    }
}

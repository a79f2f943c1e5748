import Foundation
import NIOCore
import ProviderAPI

/// Reads an upload source one chunk at a time, handing over only the chunks asked for; the
/// bytes of the others are read and dropped, so memory stays at one chunk.
///
/// Every chunk is read into the same buffer: when the caller (and the transport) have let go of
/// the last chunk, the next one fills its storage again instead of a fresh allocation (with
/// glibc's fixed mmap threshold, a fresh 8 MiB buffer is a new mapping and 2,048 page faults).
/// A chunk still held elsewhere is never overwritten: the buffer is then copied on write.
struct NuxeoChunkReader {
    private var iterator: UploadStream.AsyncIterator
    private let length: Int64
    private let size: Int64
    private let only: Set<Int>?
    private let last: Int
    private var position: Int64 = 0
    private var pending = ByteBuffer()
    private var current: ByteBuffer

    init(source: any UploadSource, length: Int64, chunkSize: Int, only: Set<Int>?) throws {
        iterator = try source.makeStream().makeAsyncIterator()
        self.length = length
        size = Int64(chunkSize)
        self.only = only
        last = only?.max() ?? Int(max(0, length - 1) / Int64(chunkSize))
        current = ByteBufferAllocator().buffer(capacity: Int(min(Int64(chunkSize), max(0, length))))
    }

    /// The next wanted chunk and its index, or `nil` after the last one.
    mutating func next() async throws -> (Int, ByteBuffer)? {
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
                if wanted { return (index, current) }
                current.clear()
            }
        }
        return nil
    }
}

import NIOCore
import ProviderAPI

/// Reads a source in parts of a fixed size, one at a time, into one part buffer that is reused.
///
/// A part is handed out as the reader's own buffer; when the caller (and the transport) let go of
/// it before asking for the next one, the next part is read into the same storage instead of a
/// fresh allocation. With glibc's fixed mmap threshold every fresh multi-megabyte buffer is a new
/// mapping, so reuse saves a page fault per page of every part. A part still held elsewhere is
/// never overwritten: the buffer is then copied on write as any `ByteBuffer`.
struct PydioPartReader {
    private var iterator: UploadStream.AsyncIterator
    /// Bytes read from the source beyond the part handed out last.
    private var pending = ByteBuffer()
    private var part: ByteBuffer
    private let length: Int64
    private let partSize: Int
    private var delivered: Int64 = 0

    init(source: any UploadSource, length: Int64, partSize: Int) throws {
        iterator = try source.makeStream().makeAsyncIterator()
        self.length = length
        self.partSize = partSize
        part = ByteBufferAllocator().buffer(capacity: Int(min(Int64(partSize), max(0, length))))
    }

    /// The next part, or `nil` after the last one.
    mutating func next() async throws -> ByteBuffer? {
        guard delivered < length else { return nil }
        let want = Int(min(Int64(partSize), length - delivered))
        part.clear()
        while part.readableBytes < want {
            if pending.readableBytes == 0 {
                guard let piece = try await iterator.next() else {
                    throw ProviderError(.conflict, "the source ended after \(delivered + Int64(part.readableBytes)) of \(length) bytes")
                }
                pending = piece
                continue
            }
            let take = min(want - part.readableBytes, pending.readableBytes)
            guard var slice = pending.readSlice(length: take) else { break }
            part.writeBuffer(&slice)
        }
        if pending.readableBytes == 0 { pending = ByteBuffer() }  // let go of the source's buffer
        delivered += Int64(want)
        return part
    }
}

/// One part of a file in memory, sent as it is: a replayable source over a `ByteBuffer` (a
/// ``DataSource`` would copy it twice, through an `Array`).
struct PydioPartSource: UploadSource {
    let buffer: ByteBuffer
    var length: Int64? { Int64(buffer.readableBytes) }
    var isReplayable: Bool { true }

    init(_ buffer: ByteBuffer) { self.buffer = buffer }

    func makeStream() throws -> UploadStream {
        // Slices share the part's storage: nothing is copied, and progress still moves per slice.
        let state = PydioSlices(buffer)
        return UploadStream { await state.next() }
    }
}

/// Hands out a buffer in slices of 256 KiB.
private actor PydioSlices {
    private var buffer: ByteBuffer
    init(_ buffer: ByteBuffer) { self.buffer = buffer }
    func next() -> ByteBuffer? {
        guard buffer.readableBytes > 0 else {
            buffer = ByteBuffer()  // the part's storage is no longer held here
            return nil
        }
        return buffer.readSlice(length: min(256 << 10, buffer.readableBytes))
    }
}

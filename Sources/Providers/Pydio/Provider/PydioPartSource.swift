import NIOCore
import ProviderAPI

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

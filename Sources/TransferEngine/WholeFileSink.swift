import NIOCore
import ProviderAPI

/// A download sink that holds a small file whole, so that its upload goes as one buffer: how
/// ``FileCopier`` copies a file smaller than ``FileCopier/wholeFileLimit``, sparing the pipe,
/// the streamed request body and their hand-offs between tasks (most of the cost of a small file).
///
/// It takes exactly the length the listing declared: a byte more is refused while it arrives, a
/// byte less when the download finishes, both as `integrity` (which a copy retries), and a file
/// that is short or long is never uploaded.
actor WholeFileSink: DownloadSink {
    /// The length the file must have.
    let length: Int64
    private var buffer: ByteBuffer
    private var finished = false

    init(length: Int64) {
        self.length = length
        buffer = ByteBuffer()
        buffer.reserveCapacity(Int(clamping: length))
    }

    /// The file's bytes, once the download finished with exactly ``length`` of them.
    var content: ByteBuffer? { finished ? buffer : nil }

    func resumePoint() async throws -> ResumePoint? { nil }

    func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws {
        // A cut download continues where this sink got to; any other start begins again.
        if offset == 0 { buffer.clear() }
        guard offset == Int64(buffer.readableBytes) else {
            throw ProviderError(.conflict, "the download restarted at byte \(offset), but \(buffer.readableBytes) bytes are held")
        }
    }

    func write(_ piece: ByteBuffer) async throws {
        guard Int64(buffer.readableBytes) + Int64(piece.readableBytes) <= length else {
            throw ProviderError(.integrity, "the source sent more than the \(length) bytes it declared")
        }
        var piece = piece
        buffer.writeBuffer(&piece)
    }

    func finish() async throws {
        guard Int64(buffer.readableBytes) == length else {
            throw ProviderError(.integrity, "the source sent \(buffer.readableBytes) of the \(length) bytes it declared")
        }
        finished = true
    }

    func fail() async { buffer = ByteBuffer() }
}

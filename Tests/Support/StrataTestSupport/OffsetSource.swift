import Foundation
import ProviderAPI

/// An upload source over bytes in memory that, like a copy streamed from another server, can be
/// read once only, from its start or from an offset (``makeStream(from:)``), and says where it
/// was read from and how many bytes it handed out: what the tests of resumed uploads count.
public final class OffsetSource: UploadSource, @unchecked Sendable {
    // `@unchecked`: every mutable field is read and written under `lock` only.
    private let lock = NSLock()
    private var streams = 0
    private var starts: [Int64] = []
    private var handedOut: Int64 = 0
    private let oneShot: Bool

    /// The content.
    public let bytes: [UInt8]
    public var length: Int64? { Int64(bytes.count) }
    public var isReplayable: Bool { !oneShot }

    /// A source of `bytes`; `oneShot` (the default) allows one stream in all.
    public init(_ bytes: [UInt8], oneShot: Bool = true) {
        self.bytes = bytes
        self.oneShot = oneShot
    }

    /// The offsets streams were made from, in order.
    public var offsets: [Int64] { lock.withLock { starts } }
    /// The bytes handed out by every stream made.
    public var bytesRead: Int64 { lock.withLock { handedOut } }

    public func makeStream() throws -> UploadStream {
        guard let stream = try makeStream(from: 0) else { throw ProviderError(.conflict, "no stream") }
        return stream
    }

    public func makeStream(from offset: Int64) throws -> UploadStream? {
        guard offset >= 0, offset <= Int64(bytes.count) else { throw ProviderError(.invalidArgument, "offset \(offset) out of range") }
        try lock.withLock {
            if oneShot, streams > 0 { throw ProviderError(.conflict, "a one-shot source was asked for a second stream") }
            streams += 1
            starts.append(offset)
        }
        let cursor = Cursor(position: Int(offset))
        return UploadStream { [self] in
            let range: Range<Int>? = lock.withLock {
                guard cursor.position < bytes.count else { return nil }
                let end = min(bytes.count, cursor.position + (16 << 10))
                defer { cursor.position = end }
                handedOut += Int64(end - cursor.position)
                return cursor.position..<end
            }
            return range.map { ByteBuffer(bytes: bytes[$0]) }
        }
    }

    /// A stream's position; used under the source's lock only.
    private final class Cursor: @unchecked Sendable {
        var position: Int
        init(position: Int) { self.position = position }
    }
}

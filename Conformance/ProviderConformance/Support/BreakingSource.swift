import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI

/// An upload source that hands out `limit` bytes of `bytes` and then throws, as a pipe that
/// breaks or a disk that fails under a local file would: the fault is injected on the caller's
/// side of the contract, so it reaches any provider, HTTP-based or not.
///
/// It declares the full length and is one-shot (``isReplayable`` is `false`), so no provider
/// may send it again on its own: the caller's retry with a good source is what must succeed.
struct BreakingSource: UploadSource {
    /// The error the stream throws at the break.
    static let failure = InjectedFault(what: "the upload source broke")

    let bytes: [UInt8]
    let limit: Int
    var length: Int64? { Int64(bytes.count) }
    var isReplayable: Bool { false }

    /// A source of `bytes` that throws ``failure`` after `limit` of them, in pieces of at most 64 KiB.
    init(_ bytes: [UInt8], breakingAfter limit: Int) {
        self.bytes = bytes
        self.limit = min(limit, bytes.count - 1)
    }

    func makeStream() throws -> UploadStream {
        let position = NIOLockedValueBox(0)
        let bytes = bytes
        let limit = limit
        return UploadStream {
            let slice = position.withLockedValue { offset -> Range<Int>? in
                guard offset < limit else { return nil }
                let end = min(limit, offset + (64 << 10))
                defer { offset = end }
                return offset..<end
            }
            guard let slice else { throw Self.failure }
            return ByteBuffer(bytes: bytes[slice])
        }
    }
}

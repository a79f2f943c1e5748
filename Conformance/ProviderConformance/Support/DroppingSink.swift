import Foundation
import NIOCore
import ProviderAPI

/// A sink that passes the body to another sink and fails once it has taken `limit` bytes, as a
/// connection that drops in the middle of a download would: the fault is injected on the
/// caller's side of the contract, so it reaches any provider, HTTP-based or not.
///
/// The sink records the calls it gets, so a case can check the sink protocol: `DownloadSink.fail()`
/// and never `DownloadSink.finish()` after the drop.
actor DroppingSink: DownloadSink {
    /// What the sink was asked to do, in order.
    enum Call: Equatable, CustomStringConvertible {
        case begin(offset: Int64)
        case finish
        case fail

        var description: String {
            switch self {
            case .begin(let offset): return "begin(offset: \(offset))"
            case .finish: return "finish()"
            case .fail: return "fail()"
            }
        }
    }

    /// The error every write throws once the limit is reached.
    static let drop = InjectedFault(what: "the sink dropped the download")

    private let base: any DownloadSink
    private let limit: Int64
    private var taken: Int64 = 0
    private(set) var calls: [Call] = []
    /// Whether the drop happened.
    private(set) var dropped = false

    /// A sink that writes the first `limit` bytes it gets into `base`, then throws ``drop``.
    init(_ base: any DownloadSink, after limit: Int64) {
        self.base = base
        self.limit = limit
    }

    func resumePoint() async throws -> ResumePoint? { try await base.resumePoint() }

    func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws {
        calls.append(.begin(offset: offset))
        if dropped { throw Self.drop }
        try await base.begin(offset: offset, expectedLength: expectedLength, validator: validator)
        taken = offset
    }

    func write(_ buffer: ByteBuffer) async throws {
        if dropped { throw Self.drop }
        let room = limit - taken
        guard Int64(buffer.readableBytes) >= room else {
            try await base.write(buffer)
            taken += Int64(buffer.readableBytes)
            return
        }
        if room > 0, let head = buffer.getSlice(at: buffer.readerIndex, length: Int(room)) {
            try await base.write(head)
            taken += room
        }
        dropped = true
        throw Self.drop
    }

    func finish() async throws {
        calls.append(.finish)
        try await base.finish()
    }

    func fail() async {
        calls.append(.fail)
        await base.fail()
    }
}

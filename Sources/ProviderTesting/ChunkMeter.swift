import Foundation
import HTTPProviderKit
import NIOConcurrencyHelpers
import ProviderAPI

/// Counts the chunk requests of uploads and the bytes they carry, and cuts the connection on
/// demand: once armed with ``cut(after:)``, every request after that many chunks fails as a
/// refused connection does (a network that went away). For tests of resumable uploads: cut an
/// upload part way, then count what the resumed upload sends.
///
/// ```swift
/// let meter = ChunkMeter { $0.method.rawValue == "PUT" && $0.url.path.contains("/uploads/") }
/// // a provider configured with `transport: meter.transport`
/// meter.cut(after: 4)
/// // the upload fails with a network error after 4 chunks
/// meter.reset()
/// // the resumed upload: `meter.chunks` and `meter.bytes` are what it sent
/// ```
public final class ChunkMeter: Sendable {
    private struct State {
        var counted = 0
        var sent: Int64 = 0
        var limit: Int?
    }

    private let state = NIOLockedValueBox(State())
    /// The transport to give the provider under test: it sends through the base transport.
    public let transport: FaultInjectingTransport

    /// A meter of the requests `isChunk` recognises, sending through `base` (by default the shared
    /// HTTP client).
    public init(
        _ base: any HTTPTransport = AsyncHTTPClientTransport.shared, isChunk: @escaping @Sendable (TransportRequest) -> Bool
    ) {
        let state = self.state
        transport = FaultInjectingTransport(base)
        transport.inject(count: .max) { request in
            state.withLockedValue { state -> FaultInjectingTransport.Fault? in
                if let limit = state.limit, state.counted >= limit { return .connectionFailure }
                if isChunk(request) {
                    state.counted += 1
                    state.sent += request.body?.length ?? 0
                }
                return nil
            }
        }
    }

    /// Chunk requests let through since the last ``reset()``.
    public var chunks: Int { state.withLockedValue { $0.counted } }
    /// Their body bytes.
    public var bytes: Int64 { state.withLockedValue { $0.sent } }

    /// Every request after `count` more chunks fails.
    public func cut(after count: Int) { state.withLockedValue { $0.limit = $0.counted + count } }

    /// Zero counters, no cut.
    public func reset() { state.withLockedValue { $0 = State() } }
}

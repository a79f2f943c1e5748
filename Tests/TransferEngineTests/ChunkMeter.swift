import Foundation
import HTTPProviderKit
import ProviderAPI
import ProviderTesting

/// Counts the chunk requests of uploads and the bytes they carry, and cuts the connection on
/// demand: once armed with ``cut(after:)``, every request after that many chunks fails as a
/// refused connection does (a network that went away).
final class ChunkMeter: @unchecked Sendable {
    // `@unchecked`: the counters are read and written under `lock` only.
    private let lock = NSLock()
    private var counted = 0
    private var sent: Int64 = 0
    private var limit: Int?
    let transport: FaultInjectingTransport

    /// A meter of the requests `isChunk` recognises.
    init(isChunk: @escaping @Sendable (TransportRequest) -> Bool) {
        transport = FaultInjectingTransport(AsyncHTTPClientTransport.shared)
        transport.inject(count: .max) { [unowned self] request in
            self.lock.withLock { () -> FaultInjectingTransport.Fault? in
                if let limit = self.limit, self.counted >= limit { return .connectionFailure }
                if isChunk(request) {
                    self.counted += 1
                    self.sent += request.body?.length ?? 0
                }
                return nil
            }
        }
    }

    /// Chunk requests let through since the last reset.
    var chunks: Int { lock.withLock { counted } }
    /// Their body bytes.
    var bytes: Int64 { lock.withLock { sent } }

    /// Every request after `count` more chunks fails.
    func cut(after count: Int) { lock.withLock { limit = counted + count } }

    /// Zero counters, no cut.
    func reset() {
        lock.withLock {
            counted = 0
            sent = 0
            limit = nil
        }
    }
}

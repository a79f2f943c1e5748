import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import HTTPProviderKit

/// Wraps a transport and counts the requests sent through it, by method.
///
/// The conformance suite uses it to prove that an unsupported call sends no request.
public final class CountingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let counts = NIOLockedValueBox<[String: Int]>([:])

    /// Wraps `base`.
    public init(_ base: any HTTPTransport) { self.base = base }

    /// Requests sent so far.
    public var total: Int { counts.withLockedValue { $0.values.reduce(0, +) } }

    /// Requests sent so far with `method`.
    public func count(of method: String) -> Int { counts.withLockedValue { $0[method] ?? 0 } }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        counts.withLockedValue { $0[request.method.rawValue, default: 0] += 1 }
        return try await base.send(request)
    }
}

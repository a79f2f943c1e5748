import Foundation
import ProviderAPI

/// Sends one HTTP request and returns the response with its body still streaming.
///
/// A transport does exactly one exchange: no authentication, retries or
/// redirects, which ``RequestExecutor`` layers on top. That makes a transport
/// easy to substitute: `FaultInjectingTransport` wraps another to inject
/// failures, `CountingTransport` counts requests, and a test can answer
/// from memory.
///
/// Transports throw `ProviderError` only (`ProviderError.Code.network` for
/// connection failures and timeouts, `ProviderError.Code.cancelled` on cancellation).
/// A refused connection is reported with the message `connection refused`, and a host name that
/// cannot be resolved with `cannot resolve host NAME`: ``RequestExecutor`` retries the first once
/// at most and the second never.
///
/// ## Topics
/// - ``AsyncHTTPClientTransport``
/// - ``RequestExecutor``
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns as soon as the response head has arrived.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

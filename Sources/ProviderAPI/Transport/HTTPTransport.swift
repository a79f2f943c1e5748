import Foundation

/// Sends one HTTP request and returns the response with its body still streaming.
///
/// A transport does exactly one exchange: no authentication, retries or
/// redirects, which ``RequestExecutor`` layers on top. That makes a transport
/// easy to substitute: ``FaultInjectingTransport`` wraps another to inject
/// failures, ``CountingTransport`` counts requests, and a test can answer
/// from memory.
///
/// Transports throw ``ProviderError`` only (``ProviderError/Code/network`` for
/// connection failures and timeouts, ``ProviderError/Code/cancelled`` on cancellation).
///
/// ## Topics
/// - ``AsyncHTTPClientTransport``
/// - ``RequestExecutor``
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns as soon as the response head has arrived.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

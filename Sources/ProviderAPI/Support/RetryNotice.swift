import Foundation

/// What `RequestExecutor.onRetry` is told before a request is sent again.
public struct RetryNotice: Sendable, CustomStringConvertible {
    /// The request, as `METHOD path` with secrets removed.
    public var request: String
    /// The number of the attempt about to start (2 for the first retry).
    public var attempt: Int
    /// The most attempts the policy allows, the first included.
    public var maxAttempts: Int
    /// Why: the failure or status of the last attempt (`connection refused`, `HTTP 503`).
    public var reason: String
    /// How long the executor waits before the attempt.
    public var delay: Duration

    /// Creates a notice.
    package init(request: String, attempt: Int, maxAttempts: Int, reason: String, delay: Duration) {
        self.request = request
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.reason = reason
        self.delay = delay
    }

    /// `retrying GET /path in 0.4 s (attempt 2 of 4): connection refused`.
    public var description: String {
        "retrying \(request) in \(delay.spokenSeconds) (attempt \(attempt) of \(maxAttempts)): \(reason)"
    }
}

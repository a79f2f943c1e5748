import Foundation

/// When and how long `RequestExecutor` waits before sending a request again.
///
/// Connection failures and 502/504 are retried for idempotent requests; 429
/// and 503 are retried for any request whose body can be replayed, because the
/// server did not act on it. Delays grow exponentially with full jitter, and a
/// `Retry-After` from the server replaces the computed delay.
///
/// A refused connection is retried once at most (a server that refuses will most likely refuse
/// again), and so is a request the server took and then left without a byte for the whole read
/// timeout (a second silence is its answer: with the defaults a silent server fails after two
/// read timeouts, 60 s and a retry's delay, not four); a host name that cannot be resolved is
/// never retried, and no retry starts once the attempts have taken ``totalDeadline``.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// The delay before the first retry, before jitter.
    public var baseDelay: Duration
    /// The longest computed delay.
    public var maxDelay: Duration
    /// The longest `Retry-After` the executor will wait; a longer one fails at once with ``ProviderError/Code/rateLimited``.
    public var maxRetryAfter: Duration
    /// The longest a request's attempts may take, counted from the start of the first one:
    /// no retry starts (its delay included) past it.
    public var totalDeadline: Duration

    /// Creates a policy.
    public init(
        maxAttempts: Int = 4, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(10),
        maxRetryAfter: Duration = .seconds(60), totalDeadline: Duration = .seconds(120)
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.totalDeadline = totalDeadline
    }

    /// The default policy: 4 attempts, 200 ms doubling up to 10 s, `Retry-After` honoured up to a
    /// minute, no retry past 120 s.
    public static let standard = RetryPolicy()
    /// Never retry.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The delay before retry number `retry` (1 for the first retry), with full jitter.
    package func delay(forRetry retry: Int) -> Duration {
        let exponent = min(max(retry - 1, 0), 30)
        let ceiling = min(maxDelay, baseDelay * (1 << exponent))
        let nanos = max(ceiling.nanosecondsClamped, 1)
        return .nanoseconds(Int64.random(in: (nanos / 2)...nanos))
    }

    /// Whether a retry after `delay` may start when the attempts so far have taken `elapsed`.
    package func allowsRetry(after elapsed: Duration, delay: Duration) -> Bool {
        elapsed + delay < totalDeadline
    }
}

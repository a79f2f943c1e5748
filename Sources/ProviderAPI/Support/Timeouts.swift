import Foundation

/// How long a provider's requests may take, passed per provider through ``ProviderRegistry``
/// (``ProviderConfiguration/timeouts``) and applied by the adapter family to each request (the
/// HTTP kit sets them on each request its transport sends).
///
/// A value left `nil` is the transport's own; for the HTTP kit's default transport those are
/// 10 s to connect, 30 s without a byte, and 1024 bytes/s over any minute, as in the `strata`
/// command line (`--connect-timeout`, `--timeout`, `--low-speed-limit`, `--low-speed-time`).
///
/// ```swift
/// let (provider, path) = try await registry.provider(
///     for: url, credentials: credentials, timeouts: Timeouts(connect: .seconds(3), read: .seconds(10)))
/// ```
public struct Timeouts: Sendable, Hashable {
    /// The longest a connection (TCP and TLS) may take, per attempt; `nil` for the transport's own.
    /// Default `nil`.
    public var connect: Duration?
    /// The longest the server may send no byte at all, head or body, before the request fails
    /// with ``ProviderError/Code/network``; `nil` for the transport's own. Default `nil`.
    public var read: Duration?
    /// The slowest a download or upload body may move (``MinimumSpeed/off`` for no limit); `nil`
    /// for the transport's own. Default `nil`.
    public var minimumSpeed: MinimumSpeed?

    /// Creates timeouts; each one left out is the transport's own.
    public init(connect: Duration? = nil, read: Duration? = nil, minimumSpeed: MinimumSpeed? = nil) {
        self.connect = connect
        self.read = read
        self.minimumSpeed = minimumSpeed
    }

    /// None set: every deadline is the transport's own.
    package static let transportDefaults = Timeouts()

    /// Whether no value is set.
    package var isEmpty: Bool { self == .transportDefaults }

    /// These timeouts, with each value left `nil` taken from `fallback`.
    package func filling(from fallback: Timeouts) -> Timeouts {
        Timeouts(
            connect: connect ?? fallback.connect, read: read ?? fallback.read, minimumSpeed: minimumSpeed ?? fallback.minimumSpeed)
    }
}

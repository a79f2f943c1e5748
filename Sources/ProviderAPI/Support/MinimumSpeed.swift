import Foundation

/// The slowest a body may move, like curl's `--speed-limit` and `--speed-time`: a download or
/// upload that moves fewer than `bytesPerSecond × window` bytes in any `window` fails with
/// ``ProviderError/Code/network`` ("slower than 1024 bytes/s for 60 s").
public struct MinimumSpeed: Sendable, Hashable {
    /// The lowest average rate over a window, in bytes per second; 0 turns the check off.
    public var bytesPerSecond: Int64
    /// How long the rate may stay below ``bytesPerSecond`` before the transfer fails.
    public var window: Duration

    /// Creates a minimum speed.
    public init(bytesPerSecond: Int64, window: Duration) {
        self.bytesPerSecond = bytesPerSecond
        self.window = window
    }

    /// The default: 1024 bytes/s over 60 s.
    public static let standard = MinimumSpeed(bytesPerSecond: 1024, window: .seconds(60))

    /// No minimum: a transfer may be as slow as it likes (a stalled one still ends at the read timeout).
    public static let off = MinimumSpeed(bytesPerSecond: 0, window: .zero)

    /// Whether this minimum checks anything: a rate and a window above zero.
    package var isEnabled: Bool { bytesPerSecond > 0 && window > .zero }

    /// The message of a transfer that was too slow.
    package var message: String { "slower than \(bytesPerSecond) bytes/s for \(window.spokenLength)" }
}

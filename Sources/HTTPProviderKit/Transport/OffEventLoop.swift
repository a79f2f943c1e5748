import Dispatch
import NIOPosix

/// Runs CPU-heavy work, such as decoding and mapping a page of a listing, where it cannot stall
/// an event loop.
///
/// With ``EventLoopTasks`` installed, Swift tasks run on the HTTP client's event loops: a task
/// that decodes a 1.6 MB page for 100 ms holds up every connection of its loop meanwhile, and
/// the request for the next page, sent by a task that waits for the same loop, leaves only when
/// the decoding is done — the pages of a listing end up fetched one after the other again.
/// ``run(_:)`` moves such work to a Dispatch worker thread when it is called from an event loop,
/// and runs it in place otherwise (a task on Swift's own pool is already off the loops), so a
/// library behaves the same whichever executor its host chose.
///
/// ```swift
/// let page = try await OffEventLoop.run { try decode(body) }   // the loop sends the next request meanwhile
/// ```
public enum OffEventLoop {
    /// Whether the calling thread is one of swift-nio's event loops.
    public static var isOnEventLoop: Bool { MultiThreadedEventLoopGroup.currentEventLoop != nil }

    /// Runs `body` and returns what it returns or throws: on a Dispatch worker thread when called
    /// from an event loop, in place otherwise. The work is not interrupted by cancellation; it is
    /// meant for pieces of work measured in milliseconds, not for ones that wait.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        guard isOnEventLoop else { return try body() }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}

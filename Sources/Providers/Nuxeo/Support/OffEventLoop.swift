import NIOPosix
import ProviderKit

/// Runs CPU-heavy work, such as decoding and mapping a page of a listing, where it cannot stall
/// an event loop.
///
/// Strata's tasks run on Swift's own executor, off the event loops; but a host application may
/// make swift-nio's event loops its global executor (`NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()`),
/// and then a task that decodes a 1.6 MB page for 100 ms holds up every connection of its loop
/// meanwhile. ``run(_:)`` moves such work to swift-nio's blocking thread pool (`BlockingIO` in
/// ProviderKit, where file I/O goes too) when it is called from an event loop, and runs it in place
/// otherwise (a task on Swift's own pool is already off the loops, and the hop would cost a thread
/// hand-off for nothing), so a library behaves the same whichever executor its host chose.
/// Blocking system calls (file I/O) always go through `BlockingIO`, wherever they are called from.
///
/// ```swift
/// let page = try await OffEventLoop.run { try decode(body) }   // the loop sends the next request meanwhile
/// ```
package enum OffEventLoop {
    /// Whether the calling thread is one of swift-nio's event loops.
    package static var isOnEventLoop: Bool { MultiThreadedEventLoopGroup.currentEventLoop != nil }

    /// Runs `body` and returns what it returns or throws: on swift-nio's blocking thread pool when
    /// called from an event loop, in place otherwise. The work is not interrupted by cancellation;
    /// it is meant for pieces of work measured in milliseconds, not for ones that wait.
    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        guard isOnEventLoop else { return try body() }
        return try await BlockingIO.run(body)
    }
}

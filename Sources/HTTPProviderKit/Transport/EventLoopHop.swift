import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI

/// Waits until an event loop has run everything queued on it before this call.
///
/// An event loop that has shut down drops the task without running it; the dropped task
/// releases its ``EventLoopHop`` box, whose `deinit` then fails the wait instead of leaving it
/// suspended for ever.
enum EventLoopHop {
    /// Returns once `loop` has run a task queued now; throws ``ProviderError/Code/network`` if it never will.
    static func drain(_ loop: any EventLoop) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let box = Box(continuation)
            loop.execute { box.finish(.success(())) }
        }
    }

    private final class Box: Sendable {
        private let continuation: NIOLockedValueBox<CheckedContinuation<Void, any Error>?>

        init(_ continuation: CheckedContinuation<Void, any Error>) {
            self.continuation = NIOLockedValueBox(continuation)
        }

        func finish(_ result: Result<Void, any Error>) {
            let pending = continuation.withLockedValue { value -> CheckedContinuation<Void, any Error>? in
                defer { value = nil }
                return value
            }
            pending?.resume(with: result)
        }

        deinit {
            finish(.failure(ProviderError(.network, "the HTTP client's event loop has shut down")))
        }
    }
}

import NIOConcurrencyHelpers

/// Runs an operation at most once at a time: callers that arrive while it runs wait for that
/// same run and get its value or its error, instead of starting their own.
///
/// This is the shape of a token refresh or a sign-in: many requests see an expired token at
/// once, one of them fetches a new token, and the others use it. A failed run is seen by every
/// caller that waited for it; the next call after it ended starts a new run.
///
/// ```swift
/// let refreshes = SingleFlight<String>()
/// let token = try await refreshes.run { try await fetchToken() }
/// ```
///
/// The run is a task of its own: it goes on when a caller waiting for it is cancelled (the
/// other callers may still want its value), and it is not cancelled by anything but its own
/// operation.
public final class SingleFlight<Value: Sendable>: Sendable {
    private let running = NIOLockedValueBox<Task<Value, any Error>?>(nil)
    /// How many calls of ``run(_:)`` and ``join()`` wait for a run now.
    private let waiting = NIOLockedValueBox(0)

    /// An idle single-flight.
    public init() {}

    /// Whether a run is under way.
    package var isRunning: Bool { running.withLockedValue { $0 != nil } }

    /// How many calls wait for the run under way (the one that started it included): a test
    /// waits for this count before it lets a run end, instead of sleeping.
    package var waitingCalls: Int { waiting.withLockedValue { $0 } }

    /// The value of the run under way, once it ends; `nil` at once when none is running.
    ///
    /// - Throws: the error of the run under way.
    package func join() async throws -> Value? {
        let counter = waiting
        guard let task = running.withLockedValue({ current -> Task<Value, any Error>? in
            if current != nil { counter.withLockedValue { $0 += 1 } }
            return current
        }) else { return nil }
        defer { counter.withLockedValue { $0 -= 1 } }
        return try await task.value
    }

    /// The value of the run under way, or of a new run of `operation` when none is.
    ///
    /// - Throws: the error of the run waited for, whether this call started it or joined it.
    public func run(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let slot = running
        let counter = waiting
        let task = slot.withLockedValue { current -> Task<Value, any Error> in
            // Counted under the slot's lock, so a caller counted in has joined the run it counts for.
            counter.withLockedValue { $0 += 1 }
            if let current { return current }
            let task = Task {
                // The slot is freed by the run itself, once its value is settled, so that the
                // next call after it starts anew whoever waited. It cannot be freed before it is
                // set: that assignment holds the lock this waits for.
                defer { slot.withLockedValue { $0 = nil } }
                return try await operation()
            }
            current = task
            return task
        }
        defer { counter.withLockedValue { $0 -= 1 } }
        return try await task.value
    }
}

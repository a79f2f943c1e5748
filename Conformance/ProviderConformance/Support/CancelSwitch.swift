import Foundation
import NIOConcurrencyHelpers

/// Cancels a task from a callback that may run before the task handle is known.
final class CancelSwitch: Sendable {
    private struct State {
        var cancel: (@Sendable () -> Void)?
        var tripped = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = NIOLockedValueBox(State())

    /// Starts `work` in a task that this switch cancels, once the switch knows the task: a
    /// fast provider cannot finish before ``trip()`` can reach it.
    func start<Success: Sendable>(_ work: @escaping @Sendable () async throws -> Success) -> Task<Success, any Error> {
        let task = Task {
            await self.attached()
            return try await work()
        }
        attach(task)
        return task
    }

    /// Remembers how to cancel the task; cancels at once if the switch was already tripped.
    private func attach<Success: Sendable>(_ task: Task<Success, any Error>) {
        let (trippedAlready, waiting) = state.withLockedValue { state in
            state.cancel = { task.cancel() }
            defer { state.waiting = [] }
            return (state.tripped, state.waiting)
        }
        if trippedAlready { task.cancel() }
        for waiter in waiting { waiter.resume() }
    }

    /// Returns once a task is attached.
    private func attached() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLockedValue { state -> Bool in
                if state.cancel != nil { return true }
                state.waiting.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Cancels the task (once).
    func trip() {
        let cancel = state.withLockedValue { state -> (@Sendable () -> Void)? in
            guard !state.tripped else { return nil }
            state.tripped = true
            return state.cancel
        }
        cancel?()
    }

    /// Whether ``trip()`` was called.
    var isTripped: Bool { state.withLockedValue { $0.tripped } }
}

import Foundation

/// Cancels a task from a callback that may run before the task handle is known.
final class CancelSwitch: Sendable {
    private struct State {
        var cancel: (@Sendable () -> Void)?
        var tripped = false
    }
    private let state = Locked(State())

    /// Remembers how to cancel the task; cancels at once if the switch was already tripped.
    func attach<Success: Sendable>(_ task: Task<Success, any Error>) {
        let trippedAlready = state.withLock { state -> Bool in
            state.cancel = { task.cancel() }
            return state.tripped
        }
        if trippedAlready { task.cancel() }
    }

    /// Cancels the task (once).
    func trip() {
        let cancel = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.tripped else { return nil }
            state.tripped = true
            return state.cancel
        }
        cancel?()
    }

    /// Whether ``trip()`` was called.
    var isTripped: Bool { state.withLock { $0.tripped } }
}

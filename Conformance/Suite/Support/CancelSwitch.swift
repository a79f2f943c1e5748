import Foundation
import NIOConcurrencyHelpers

/// Cancels a task from a callback that may run before the task handle is known.
final class CancelSwitch: Sendable {
    private struct State {
        var cancel: (@Sendable () -> Void)?
        var tripped = false
    }
    private let state = NIOLockedValueBox(State())

    /// Remembers how to cancel the task; cancels at once if the switch was already tripped.
    func attach<Success: Sendable>(_ task: Task<Success, any Error>) {
        let trippedAlready = state.withLockedValue { state -> Bool in
            state.cancel = { task.cancel() }
            return state.tripped
        }
        if trippedAlready { task.cancel() }
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

import Foundation
import NIOConcurrencyHelpers

/// One hierarchy's load state: one load at a time, its progress watchers and its idle waiters.
final class HierarchyLoadGate: Sendable {
    private struct State {
        var loading = false
        var loaded = 0
        var watchers: [UUID: AsyncStream<Int>.Continuation] = [:]
        var turnWaiters: [CheckedContinuation<Void, Never>] = []
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    var isLoading: Bool { state.withLockedValue { $0 }.loading }

    /// Waits for this gate's turn, then marks a load running.
    func begin() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let start = state.withLockedValue { state -> Bool in
                if state.loading {
                    state.turnWaiters.append(continuation)
                    return false
                }
                state.loading = true
                state.loaded = 0
                return true
            }
            if start { continuation.resume() }
        }
    }

    /// Publishes the running load's node count.
    func report(_ loaded: Int) {
        let watchers = state.withLockedValue { state -> [AsyncStream<Int>.Continuation] in
            state.loaded = loaded
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.yield(loaded) }
    }

    /// Ends the running load: finishes the watchers, then lets the next load run or wakes the idle waiters.
    func end() {
        let (watchers, next, idle) = state.withLockedValue {
            state -> ([AsyncStream<Int>.Continuation], CheckedContinuation<Void, Never>?, [CheckedContinuation<Void, Never>]) in
            let watchers = Array(state.watchers.values)
            state.watchers = [:]
            if !state.turnWaiters.isEmpty {
                state.loaded = 0
                return (watchers, state.turnWaiters.removeFirst(), [])
            }
            state.loading = false
            let idle = state.idleWaiters
            state.idleWaiters = []
            return (watchers, nil, idle)
        }
        for watcher in watchers { watcher.finish() }
        next?.resume()
        for waiter in idle { waiter.resume() }
    }

    func progress() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        let (loading, loaded) = state.withLockedValue { state -> (Bool, Int) in
            if state.loading { state.watchers[id] = continuation }
            return (state.loading, state.loaded)
        }
        continuation.yield(loaded)
        if !loading { continuation.finish() }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLockedValue { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLockedValue { state -> Bool in
                if state.loading {
                    state.idleWaiters.append(continuation)
                    return false
                }
                return true
            }
            if idle { continuation.resume() }
        }
    }
}

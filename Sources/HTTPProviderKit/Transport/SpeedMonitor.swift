import Foundation
import NIOConcurrencyHelpers
import ProviderAPI

/// Watches the bytes a body moves over a sliding window and fails the transfer that moves too few.
///
/// The monitor keeps a sample of the running total every eighth of a window, so the check
/// looks at the last window (give or take an eighth) with a handful of samples whatever the speed.
final class SpeedMonitor: Sendable {
    private struct Sample {
        var time: ContinuousClock.Instant
        var total: Int64
    }
    private struct State {
        var samples: [Sample] = []
        var total: Int64 = 0
        var failed = false
        var finished = false
    }
    private let state = NIOLockedValueBox(State())
    private let speed: MinimumSpeed
    private let request: RequestSummary
    private let minimumBytes: Double
    private let step: Duration

    init(_ speed: MinimumSpeed, request: RequestSummary) {
        self.speed = speed
        self.request = request
        let seconds = Double(speed.window.components.seconds) + Double(speed.window.components.attoseconds) / 1e18
        minimumBytes = Double(speed.bytesPerSecond) * seconds
        step = speed.window / 8
    }

    /// Starts the clock, once: the window counts from the first call.
    func start() {
        let now = ContinuousClock.now
        state.withLockedValue { state in
            if state.samples.isEmpty { state.samples.append(Sample(time: now, total: 0)) }
        }
    }

    /// Counts `bytes` more and checks the speed.
    func record(_ bytes: Int) throws {
        let now = ContinuousClock.now
        try state.withLockedValue { state in
            if state.samples.isEmpty { state.samples.append(Sample(time: now, total: 0)) }
            state.total += Int64(bytes)
            if let last = state.samples.last, now - last.time >= step {
                state.samples.append(Sample(time: now, total: state.total))
            }
            try check(&state, now: now)
        }
    }

    /// Stops the checks: the body has moved whole (the wait for an answer is the read timeout's).
    func finish() {
        state.withLockedValue { $0.finished = true }
    }

    /// Checks the speed now, for a watchdog that runs while no byte moves.
    func check() throws {
        let now = ContinuousClock.now
        try state.withLockedValue { state in try check(&state, now: now) }
    }

    /// How often a watchdog should call ``check()``.
    var checkInterval: Duration { max(step, .milliseconds(10)) }

    /// Calls ``check()`` until it fails, the body is finished, or the task is cancelled.
    func watch() async throws {
        while !state.withLockedValue({ $0.finished }) {
            try await Task.sleep(for: checkInterval)
            try check()
        }
    }

    private func check(_ state: inout State, now: ContinuousClock.Instant) throws {
        if state.failed { throw failure }
        if state.finished { return }
        // The newest sample at least a window old is the baseline; older ones are no longer needed.
        guard let index = state.samples.lastIndex(where: { now - $0.time >= speed.window }) else { return }
        if index > 0 { state.samples.removeFirst(index) }
        let moved = Double(state.total - state.samples[0].total)
        if moved < minimumBytes {
            state.failed = true
            throw failure
        }
    }

    private var failure: ProviderError { ProviderError(.network, speed.message, request: request.text) }
}

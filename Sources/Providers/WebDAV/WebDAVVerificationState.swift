import Foundation
import NIOConcurrencyHelpers

/// The verified behaviour of one server for a provider, with verification run at most once
/// at a time, and remembered for every provider of the same server and user in this process.
final class WebDAVVerificationState: Sendable {
    private struct State {
        var verdict: WebDAVVerifiedBehaviour
        var running: Task<WebDAVVerifiedBehaviour?, Never>?
        var attempts = 0
    }

    /// Verdicts learnt in this process, by server origin and user.
    private static let memory = NIOLockedValueBox<[String: WebDAVVerifiedBehaviour]>([:])
    /// How many times a provider tries when the probes could not run (no write access there).
    static let maxAttempts = 2

    private let state: NIOLockedValueBox<State>
    private let key: String

    init(key: String, declared: WebDAVVerifiedBehaviour) {
        self.key = key
        let remembered = Self.memory.withLockedValue { $0[key] }
        state = NIOLockedValueBox(State(verdict: remembered ?? declared))
    }

    /// The verdicts known now.
    var verdict: WebDAVVerifiedBehaviour { state.withLockedValue { $0.verdict } }

    /// Runs `verify` unless the verdict is complete or the attempts are spent; callers that
    /// arrive while it runs wait for the same run.
    func ensure(_ verify: @escaping @Sendable () async -> WebDAVVerifiedBehaviour?) async {
        let task: Task<WebDAVVerifiedBehaviour?, Never>? = state.withLockedValue { state in
            if let running = state.running { return running }
            if state.verdict.isComplete || state.attempts >= Self.maxAttempts { return nil }
            state.attempts += 1
            let task = Task { await verify() }
            state.running = task
            return task
        }
        guard let task else { return }
        let result = await task.value
        state.withLockedValue { state in
            state.running = nil
            if let result { state.verdict = result }
        }
        if let result, result.isComplete {
            let key = key
            Self.memory.withLockedValue { $0[key] = result }
        }
    }

    /// Forgets what this process learnt (for tests).
    static func forgetAll() { memory.withLockedValue { $0.removeAll() } }
}

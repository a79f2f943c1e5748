import Foundation
import Logging
import ProviderAPI

extension RequestExecutor {
    /// The longest a ``cleanup(_:timeout:_:)`` may take unless its caller says otherwise.
    public static let defaultCleanupTimeout: Duration = .seconds(30)

    /// Runs `work` shielded from the caller's cancellation, bounded by `timeout`, and logs its
    /// failure instead of throwing it: how an adapter undoes what an interrupted call left on the
    /// server (a temporary upload, a half-made folder) after that call failed or was cancelled.
    ///
    /// A cancelled task cannot send a request: ``execute(_:)`` refuses with
    /// `ProviderError.Code.cancelled` before sending anything, so a cleanup written in a `catch`
    /// block of a cancelled upload never reaches the server. `cleanup` runs `work` in a task of its
    /// own, which the caller's cancellation does not reach; the caller waits for it (at most
    /// `timeout`, after which `work` is cancelled), so nothing runs on after the call returns.
    ///
    /// `work` sends its requests as usual, through this executor or any code of the adapter that
    /// uses it. A failure of `work` (or its timeout) is logged at `warning` on ``logger`` and
    /// returned, never thrown: the error the caller rethrows afterwards stays the one that made
    /// the cleanup necessary.
    ///
    /// ```swift
    /// do {
    ///     try await putBody(at: temporaryURL)
    /// } catch {
    ///     await executor.cleanup("delete the temporary upload") {
    ///         _ = try await executor.execute(TransportRequest(method: .DELETE, url: temporaryURL))
    ///     }
    ///     throw error
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - what: what the cleanup does, for the log line of its failure; never a secret.
    ///   - timeout: the longest the cleanup may take; ``defaultCleanupTimeout`` by default.
    ///   - work: the cleanup.
    /// - Returns: `nil` when `work` succeeded, else its failure as a `ProviderError`
    ///   (`ProviderError.Code.cancelled` when it ran out of time).
    @discardableResult
    public func cleanup(
        _ what: String, timeout: Duration = RequestExecutor.defaultCleanupTimeout, _ work: @escaping @Sendable () async throws -> Void
    ) async -> ProviderError? {
        // An unstructured task does not inherit its creator's cancellation.
        let failure = await Task { () -> ProviderError? in
            await Self.run(work, within: timeout)
        }.value
        if let failure {
            logger.warning(
                "cleanup failed", metadata: ["cleanup": "\(Redactor.redact(what))", "error": "\(failure)"])
        }
        return failure
    }

    /// Runs `work`, cancelling it after `timeout`; its failure as a `ProviderError`, or `nil`.
    private static func run(_ work: @escaping @Sendable () async throws -> Void, within timeout: Duration) async -> ProviderError? {
        await withTaskGroup(of: CleanupOutcome.self) { group in
            group.addTask {
                do {
                    try await work()
                    return .finished(nil)
                } catch {
                    return .finished(ProviderError.wrap(error))
                }
            }
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return .clockStopped }
                return .timedOut
            }
            // The first to end (the work or the clock) ends the other; the group waits for both.
            let first = await group.next()
            group.cancelAll()
            switch first {
            case .finished(let failure): return failure
            case .timedOut: return ProviderError(.cancelled, "the cleanup took longer than \(timeout)")
            case .clockStopped, nil: return nil
            }
        }
    }
}

/// How the work or the clock of a cleanup ended.
private enum CleanupOutcome: Sendable {
    case finished(ProviderError?)
    case timedOut
    case clockStopped
}

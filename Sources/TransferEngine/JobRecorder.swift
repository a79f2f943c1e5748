import Foundation
import NIOConcurrencyHelpers
import ProviderAPI

/// Writes a running job's progress to the job store without making the transfers wait for it:
/// the records of the actions that end while a write is under way are written together in the
/// next one (a group commit), so the store sees one short transaction per batch however many
/// transfers run at once.
///
/// A file is reported finished only after the store knows it, so a crash after the report never
/// sends it again: ``submit(_:then:)`` runs its `then` once the record is committed, and the
/// transfer that submitted it goes on with its next file meanwhile (the store's commit is off the
/// transfers' path: they no longer wait for it between two files). ``record(_:)`` waits for the
/// commit. A write gathers records for up to ``gathering`` (or ``batchSize`` of them) unless
/// someone waits for it, so a job of many small files commits a batch at a time, not a file at a
/// time. A write that fails loses only the memory of those actions (the next run sends them
/// again); the job goes on. ``flush()`` returns once everything submitted is written.
final class JobRecorder: Sendable {
    private struct State {
        var pending: [TransferJobAction] = []
        var committed: [@Sendable () -> Void] = []
        var writing = false
        var idle: [CheckedContinuation<Void, Never>] = []
        /// Records someone waits for (``record(_:)``): written without gathering more.
        var urgent = 0
        /// The write waiting to gather more records, if any.
        var gathering: CheckedContinuation<Void, Never>?
        /// Transactions written, and records in them (for tests and measurements).
        var writes = 0
        var records = 0
    }

    private let store: any TransferJobStore
    private let job: Int64
    private let state = NIOLockedValueBox(State())

    init(store: any TransferJobStore, job: Int64) {
        self.store = store
        self.job = job
    }

    /// Transactions written so far.
    var writes: Int { state.withLockedValue { $0.writes } }
    /// Records written so far.
    var records: Int { state.withLockedValue { $0.records } }

    /// Records `action` in the next write, and calls `then` once it is committed (or its write
    /// failed); returns at once.
    func submit(_ action: TransferJobAction, then: @escaping @Sendable () -> Void) {
        submit(action, urgent: false, then: then)
    }

    private func submit(_ action: TransferJobAction, urgent: Bool, then: @escaping @Sendable () -> Void) {
        enqueue { state in
            state.pending.append(action)
            state.committed.append(then)
            if urgent { state.urgent += 1 }
        }
    }

    /// Records the actions of a job's plan (as planned) in the next write, and returns at once: the
    /// transfers start while the plan is written. A file finished before that write stays done (a
    /// record never goes back from done to planned, ``TransferJobStore/record(_:_:)``), and a plan
    /// that is never written only loses what it would have shown: resuming reads the done records.
    func submitPlan(_ actions: [TransferJobAction]) {
        guard !actions.isEmpty else { return }
        enqueue { $0.pending += actions }
    }

    /// Adds to the pending records with `add`, then starts the writer, or wakes it if it is
    /// gathering more before its write.
    private func enqueue(_ add: (inout State) -> Void) {
        let (start, wake) = state.withLockedValue { state -> (Bool, CheckedContinuation<Void, Never>?) in
            add(&state)
            if state.writing { return (false, Self.takeGathering(&state)) }
            state.writing = true
            return (true, nil)
        }
        wake?.resume()
        if start { Task { await self.writeAll() } }
    }

    /// Records `action`, and returns once it is committed (or its write failed), without waiting
    /// to gather other records.
    func record(_ action: TransferJobAction) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            submit(action, urgent: true) { continuation.resume() }
        }
    }

    /// Returns once every record submitted before is written (or its write failed), without
    /// waiting to gather more.
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (now, wake) = state.withLockedValue { state -> (Bool, CheckedContinuation<Void, Never>?) in
                if !state.writing { return (true, nil) }
                state.idle.append(continuation)
                return (false, Self.takeGathering(&state))
            }
            wake?.resume()
            if now { continuation.resume() }
        }
    }

    /// The gathering write, to be resumed now: when enough records wait, someone waits for
    /// them, or a flush does; `nil` otherwise.
    private static func takeGathering(_ state: inout State) -> CheckedContinuation<Void, Never>? {
        guard writesNow(state) else { return nil }
        defer { state.gathering = nil }
        return state.gathering
    }

    /// Whether a write goes ahead without gathering more: enough records wait, someone waits for
    /// one of them (``record(_:)``), or a ``flush()`` does.
    private static func writesNow(_ state: State) -> Bool {
        state.pending.count >= batchSize || state.urgent > 0 || !state.idle.isEmpty
    }

    /// Waits up to ``gathering`` for more records, unless a reason to write at once holds already
    /// or comes meanwhile.
    private func gather() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state -> Bool in
                if Self.writesNow(state) { return true }
                state.gathering = continuation
                return false
            }
            if now {
                continuation.resume()
                return
            }
            Task {
                try? await Task.sleep(for: Self.gathering)
                self.state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                    defer { state.gathering = nil }
                    return state.gathering
                }?.resume()
            }
        }
    }

    /// How long a write waits for more records when fewer than ``batchSize`` are pending: small
    /// files finish a few milliseconds apart, and one transaction per file cost more CPU than the
    /// rest of the job's bookkeeping (a kill loses at most this much of the memory of what was
    /// sent, never a report: reports follow the commit).
    static let gathering: Duration = .milliseconds(20)
    /// Records a write takes without waiting for more.
    static let batchSize = 64

    /// Writes batches until nothing is pending.
    private func writeAll() async {
        while true {
            await gather()
            let (batch, callbacks) = state.withLockedValue { state in
                defer {
                    state.pending = []
                    state.committed = []
                    state.urgent = 0
                }
                return (state.pending, state.committed)
            }
            try? await store.record(job, batch)
            // Reported before the recorder says it is idle: a flush returns after every report.
            for callback in callbacks { callback() }
            let idle = state.withLockedValue { state -> [CheckedContinuation<Void, Never>]? in
                state.writes += 1
                state.records += batch.count
                guard state.pending.isEmpty else { return nil }
                state.writing = false
                defer { state.idle = [] }
                return state.idle
            }
            guard let idle else { continue }
            for waiter in idle { waiter.resume() }
            return
        }
    }
}

extension TransferJobAction {
    /// The record of `action` in `state`; for a file done, with what was read and what was written.
    init(_ action: TransferAction, state: TransferJobAction.State, uploaded: Item? = nil) {
        var finished: FinishedFile?
        if action.kind == .copyFile, state == .done {
            finished = FinishedFile(
                relativePath: action.relativePath,
                source: FileFingerprint(size: action.size, modified: action.modified, etag: action.sourceETag, digest: action.sourceDigest),
                destination: FileFingerprint(size: uploaded?.size, etag: uploaded?.etag))
        }
        self.init(relativePath: action.relativePath, kind: action.kind.rawValue, state: state, finished: finished)
    }
}

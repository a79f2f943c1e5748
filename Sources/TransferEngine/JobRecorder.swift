import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import SharedCache

/// Writes a running job's progress to the job store without making the transfers wait for it:
/// the records of the actions that end while a write is under way are written together in the
/// next one (a group commit), so the store sees one short transaction per batch however many
/// transfers run at once.
///
/// A file is reported finished only after the store knows it, so a crash after the report never
/// sends it again: ``submit(_:then:)`` runs its `then` once the record is committed, and the
/// transfer that submitted it goes on with its next file meanwhile (the store's commit is off the
/// transfers' path: they no longer wait for it between two files). ``record(_:)`` waits for the
/// commit. A write that fails loses only the memory of those actions (the next run sends them
/// again); the job goes on. ``flush()`` returns once everything submitted is written.
final class JobRecorder: Sendable {
    private struct State {
        var pending: [TransferJobStore.Action] = []
        var committed: [@Sendable () -> Void] = []
        var writing = false
        var idle: [CheckedContinuation<Void, Never>] = []
        /// Transactions written, and records in them (for tests and measurements).
        var writes = 0
        var records = 0
    }

    private let store: TransferJobStore
    private let job: Int64
    private let state = NIOLockedValueBox(State())

    init(store: TransferJobStore, job: Int64) {
        self.store = store
        self.job = job
    }

    /// Transactions written so far.
    var writes: Int { state.withLockedValue { $0.writes } }
    /// Records written so far.
    var records: Int { state.withLockedValue { $0.records } }

    /// Records `action` in the next write, and calls `then` once it is committed (or its write
    /// failed); returns at once.
    func submit(_ action: TransferJobStore.Action, then: @escaping @Sendable () -> Void) {
        let start = state.withLockedValue { state -> Bool in
            state.pending.append(action)
            state.committed.append(then)
            if state.writing { return false }
            state.writing = true
            return true
        }
        if start { Task { await self.writeAll() } }
    }

    /// Records `action`, and returns once it is committed (or its write failed).
    func record(_ action: TransferJobStore.Action) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            submit(action) { continuation.resume() }
        }
    }

    /// Returns once every record submitted before is written (or its write failed).
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state -> Bool in
                if !state.writing { return true }
                state.idle.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Writes batches until nothing is pending.
    private func writeAll() async {
        while true {
            let (batch, callbacks) = state.withLockedValue { state in
                defer {
                    state.pending = []
                    state.committed = []
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

extension TransferJobStore.Action {
    /// The record of `action` in `state`; for a file done, with what was read and what was written.
    init(_ action: TransferAction, state: TransferJobStore.ActionState, uploaded: Item? = nil) {
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

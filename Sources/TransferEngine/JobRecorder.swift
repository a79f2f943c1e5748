import Foundation
import ProviderAPI
import SharedCache

/// Writes a running job's progress to the job store without making the transfers wait on each
/// other: the records of the actions that end while a write is under way are written together
/// in the next one (a group commit), so the store sees one short transaction per batch however
/// many transfers run at once.
///
/// ``record(_:)`` returns once the record is committed: a file is reported finished only after
/// the store knows it, so a crash after the report never sends it again. A write that fails
/// loses only the memory of those actions (the next run sends them again); the job goes on.
actor JobRecorder {
    private let store: TransferJobStore
    private let job: Int64
    private var pending: [TransferJobStore.Action] = []
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var writing = false
    /// Transactions written, and records in them (for tests and measurements).
    private(set) var writes = 0
    private(set) var records = 0

    init(store: TransferJobStore, job: Int64) {
        self.store = store
        self.job = job
    }

    /// Records `action`, and returns once it is committed (or its write failed).
    func record(_ action: TransferJobStore.Action) async {
        await withCheckedContinuation { continuation in
            pending.append(action)
            waiting.append(continuation)
            if !writing {
                writing = true
                Task { await self.writeAll() }
            }
        }
    }

    /// Writes batches until nothing is pending.
    private func writeAll() async {
        while !pending.isEmpty {
            let batch = pending
            let waiters = waiting
            pending = []
            waiting = []
            try? await store.record(job, batch)
            writes += 1
            records += batch.count
            for waiter in waiters { waiter.resume() }
        }
        writing = false
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

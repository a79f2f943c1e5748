/// A job as ``TransferJobStore/begin(_:fresh:)`` opened it.
package struct TransferJob: Sendable {
    /// The job's identifier in its store.
    package var id: Int64
    /// Whether an unfinished job of the same key was taken up again (else it is a new job).
    package var resumed: Bool
    /// The files an earlier, interrupted run of the job finished.
    package var finished: [FinishedFile]

    /// Creates a job as a store opened it.
    package init(id: Int64, resumed: Bool, finished: [FinishedFile]) {
        self.id = id
        self.resumed = resumed
        self.finished = finished
    }
}

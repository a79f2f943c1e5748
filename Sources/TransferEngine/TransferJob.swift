/// A job as ``TransferJobStore/begin(_:fresh:)`` opened it.
public struct TransferJob: Sendable {
    /// The job's identifier in its store.
    public var id: Int64
    /// Whether an unfinished job of the same key was taken up again (else it is a new job).
    public var resumed: Bool
    /// The files an earlier, interrupted run of the job finished.
    public var finished: [FinishedFile]

    /// Creates a job as a store opened it.
    public init(id: Int64, resumed: Bool, finished: [FinishedFile]) {
        self.id = id
        self.resumed = resumed
        self.finished = finished
    }
}

import ProviderAPI

/// How far a whole job has got.
public struct JobProgress: Sendable, Hashable, Encodable {
    /// Actions finished (done or failed), skipped files not counted.
    public var actionsDone: Int
    /// Actions to do, skipped files not counted.
    public var actionsTotal: Int
    /// File bytes sent so far, retries not counted twice.
    public var bytesDone: Int64
    /// File bytes to send, as the source's listings declared them.
    public var bytesTotal: Int64

    /// Creates a progress value.
    package init(actionsDone: Int = 0, actionsTotal: Int = 0, bytesDone: Int64 = 0, bytesTotal: Int64 = 0) {
        self.actionsDone = actionsDone
        self.actionsTotal = actionsTotal
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
    }
}

/// What a running job tells its observer, from the tasks doing the work (several at once).
public enum TransferEvent: Sendable {
    /// The plan is made; nothing was changed yet.
    case planned(TransferPlan)
    /// The job takes up an unfinished run of itself kept in the job store: `alreadyDone` files
    /// that run sent are not sent again. Comes before ``planned(_:)``.
    case resumed(alreadyDone: Int)
    /// An action started (a file copy may start again after a retryable error).
    case started(TransferAction, attempt: Int)
    /// Bytes of one file copy, as the destination took them.
    case fileProgress(TransferAction, TransferProgress)
    /// An action ended: `nil` when it succeeded.
    case finished(TransferAction, ProviderError?)
    /// The whole job moved on.
    case job(JobProgress)
}

/// Receives a job's events; called from several tasks at once, so it must be quick and thread-safe.
public typealias TransferObserver = @Sendable (TransferEvent) -> Void

import NIOConcurrencyHelpers
import ProviderAPI

/// The job's progress, updated by the tasks doing the work and read out for the observer.
final class JobCounter: Sendable {
    private let progress: NIOLockedValueBox<JobProgress>
    private let observer: TransferObserver?

    init(total: JobProgress, observer: TransferObserver?) {
        progress = NIOLockedValueBox(total)
        self.observer = observer
    }

    /// Counts `count` more bytes sent.
    func add(bytes count: Int64) {
        guard count > 0 else { return }
        let now = progress.withLockedValue { progress in
            progress.bytesDone += count
            return progress
        }
        observer?(.job(now))
    }

    /// Counts one more action finished.
    func finishAction() {
        let now = progress.withLockedValue { progress in
            progress.actionsDone += 1
            return progress
        }
        observer?(.job(now))
    }
}

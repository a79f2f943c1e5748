import NIOCore
import NIOPosix

/// Runs tasks on swift-nio's shared event loops (`MultiThreadedEventLoopGroup.singleton`, the
/// loops AsyncHTTPClient's shared clients use): the "tasks on the loops" side of the executor
/// A/B in Benchmarks/README ("Tasks on Swift's pool"), switched on for `put-many` by
/// ``switchName`` = `1`.
///
/// A task resumed by an answer on a loop runs there at once, where a task on Swift's pool is
/// woken on one of the pool's threads. Strata itself does not do this (see the README for the
/// measurement and why): only the benchmark keeps it, so the A/B can be run again.
final class LoopTaskExecutor: TaskExecutor {
    /// The one executor of the process.
    static let shared = LoopTaskExecutor()
    /// The environment variable that turns it on for `put-many`.
    static let switchName = "STRATA_BENCH_LOOP_TASKS"

    private let group = MultiThreadedEventLoopGroup.singleton

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        // `any()` is the current loop when called from one of the group's loops.
        group.any().execute { job.runSynchronously(on: executor) }
    }
}

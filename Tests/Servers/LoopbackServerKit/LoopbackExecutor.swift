import NIOCore
import NIOPosix

/// The threads the loopback test servers run on: their own event loops, and a task executor on
/// those loops for the servers' Swift tasks.
///
/// A test process runs its whole suite at once on a 2-core machine: Swift's global pool has two
/// threads, and at the start of a run hundreds of tests queue work on them. A server whose
/// handlers were tasks on that pool answered only when its turn came, after every job queued
/// before it: a loaded run saw loopback servers silent for 30 s ("no data for 30 s" in tests about
/// malformed headers, not time). On threads of their own, the servers share the CPU with the
/// tests as the kernel shares it between threads, a few milliseconds at a time, and never wait in
/// the tests' queue.
///
/// Code that blocks in a server's handler now holds up only the servers (as it would on a real
/// server's worker), never the tests' pool.
public final class LoopbackExecutor: TaskExecutor {
    /// The one set of server threads of the process.
    public static let shared = LoopbackExecutor(threads: 2)

    /// The event loops the servers' sockets and tasks run on.
    public let group: MultiThreadedEventLoopGroup

    private init(threads: Int) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
    }

    /// Runs `job` on one of the servers' loops (the current one when called from one of them).
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        group.any().execute { job.runSynchronously(on: executor) }
    }
}

import CProviderKitShims
import NIOCore
import NIOPosix

/// Runs a process's Swift tasks on the event loops of ``AsyncHTTPClientTransport``'s client
/// instead of Swift's own global thread pool.
///
/// Every request a task sends is written by an event loop, and its answer resumes the task from
/// one: with two pools, each request crosses threads at least twice (the task's thread wakes an
/// event loop, the event loop wakes a pool thread), and on a busy machine every crossing waits for
/// the scheduler. With the tasks on the event loops themselves, a task resumed by an answer runs
/// on the loop that received it (swift-nio's `EventLoopGroup.any()` prefers the loop it is called
/// on). Many small requests are paced by these crossings (1,000 uploads of 4 KiB).
///
/// Only an executable may ask for it, once, at its start: it replaces the global executor of the
/// whole process (`NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()`),
/// so a task that blocks its thread (a synchronous file read or database call) now also holds up
/// the network work of its loop; a library never calls it for its host. The `strata` command line
/// and `strata-bench` do, unless the environment variable `STRATA_TASKS_ON_POOL` is set.
public enum EventLoopTasks {
    /// Installs the shared event loops (`MultiThreadedEventLoopGroup.singleton`, which the
    /// transport's own clients use) as Swift's global executor; returns whether they run the
    /// process's tasks now. Later calls return the first call's answer and change nothing.
    @discardableResult
    public static func install() -> Bool { installed }

    /// The one attempt: Swift runs a static property's initializer once, whichever thread asks first.
    ///
    /// swift-nio finds the runtime's hook with `dlsym`, which fails in an executable linked with
    /// `--static-swift-stdlib` (the runtime's symbols are local to it): there the same hook is set
    /// through a linked reference instead (``installLinked()``), so a static `strata` runs its
    /// tasks on the event loops too.
    private static let installed: Bool =
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() || installLinked()

    /// The runtime's hook as swift-nio's installer sets it: `(job, original) -> Void`.
    private typealias EnqueueHook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

    /// Sets the hook to enqueue each job on an event loop of the singleton group, the one the
    /// enqueuing thread runs if it is one of them (`any()` prefers it), exactly as swift-nio does.
    private static func installLinked() -> Bool {
        guard #available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *) else { return false }
        return withUnsafeTemporaryAllocation(of: EnqueueHook.self, capacity: 1) { slot -> Bool in
            guard let base = slot.baseAddress else { return false }
            base.initialize(to: { job, _ in
                MultiThreadedEventLoopGroup.singleton.any().executor.enqueue(job)
            })
            // A thin function value is one code pointer: read it as a raw pointer for the C side.
            let pointer = UnsafeRawPointer(base).load(as: UnsafeRawPointer.self)
            return cproviderkit_install_enqueue_global_hook(UnsafeMutableRawPointer(mutating: pointer))
        }
    }
}

import NIOPosix
import ProviderAPI

/// Runs blocking system calls (file opens, reads, writes, `fsync`, renames) on swift-nio's
/// blocking thread pool (`NIOThreadPool.singleton`), never on the calling thread.
///
/// A task may be running on one of Swift's few cooperative threads, or, in a host that made
/// swift-nio's event loops its global executor, on an event loop: a slow disk would stall every
/// task of that thread, or every connection of that loop. The pool is built for such work (its
/// threads may block). Each call costs a hop to a pool thread and back, so callers hand it work
/// in large pieces: ``FileSink`` one hop per batch of received buffers, `FileSource` one per
/// 256 KiB read, ``LocalFile/Chunks`` one per chunk.
///
/// The work is not interrupted by cancellation once submitted: it is a system call or a few,
/// and cleanup (closing a file, removing a side file) must run whatever happened to the task.
///
/// ```swift
/// try await BlockingIO.run { try file.sync() }
/// ```
package enum BlockingIO {
    /// Runs `body` on the blocking thread pool and returns what it returns or throws.
    ///
    /// - Throws: what `body` throws; `ProviderError.Code.io` if the pool has been shut down.
    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            NIOThreadPool.singleton.submit { state in
                switch state {
                case .active: continuation.resume(with: Result { try body() })
                case .cancelled: continuation.resume(throwing: ProviderError(.io, "the blocking thread pool has shut down"))
                }
            }
        }
    }

    /// Runs `body`, which cannot fail, on the blocking thread pool: cleanup such as closing a file
    /// and removing a side file, which runs even in a cancelled task (and in place if the pool has
    /// been shut down).
    package static func cleanUp(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            NIOThreadPool.singleton.submit { _ in
                body()
                continuation.resume()
            }
        }
    }
}

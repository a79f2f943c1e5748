import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One replay (or resolution) of a cache directory's journal at a time: an async lock inside the
/// process and an advisory file lock (`journal.lock`) across processes, which the kernel releases
/// when its holder dies, SIGKILL included.
final class ReplayGate: Sendable {
    private let waiters = NIOLockedValueBox<(busy: Bool, queue: [CheckedContinuation<Void, Never>])>((false, []))

    /// Runs `body` holding the gate of the journal folder's parent `directory`.
    func run<T: Sendable>(directory: URL, _ body: () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        let lock = try PosixFile.open(directory.appendingPathComponent("journal.lock").path, flags: O_RDWR | O_CREAT, mode: 0o600)
        defer { lock.closeNow() }
        while !lock.lock(wait: false) {
            try Task.checkCancellation()
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = waiters.withLockedValue { state -> Bool in
                if !state.busy {
                    state.busy = true
                    return true
                }
                state.queue.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func release() {
        let next = waiters.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            if state.queue.isEmpty {
                state.busy = false
                return nil
            }
            return state.queue.removeFirst()
        }
        next?.resume()
    }
}

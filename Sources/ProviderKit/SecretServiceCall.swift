internal import CProviderKitShims
import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One blocking call into libsecret (``SecretServiceCredentialStore``), on threads of its own,
/// with a deadline: a `GCancellable` cancelled when the deadline passes or the task is
/// cancelled, so that a Secret Service that does not answer (or a prompt nobody answers) never
/// holds the caller longer than `timeout`.
struct SecretServiceCall: Sendable {
    /// What to do, given the cancellable and where to put the failure's text; returns 0 on success.
    typealias Body = @Sendable (_ cancellable: OpaquePointer?, _ message: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32

    /// The longest the call may take.
    var timeout: Duration
    /// What the call does, for the message of a failure (`store the login`).
    var doing: String

    /// Runs `body` and returns when it has; throws `ProviderError.Code.unsupported` with
    /// libsecret's reason when it fails, or `network` when the deadline passed.
    ///
    /// At the deadline the call's cancellable is cancelled, which libsecret and GDBus honour;
    /// should a call still not return a second later, it is left to finish on its pool thread and
    /// this returns anyway: a stuck D-Bus peer never holds the caller.
    ///
    /// Neither the answer nor the deadline goes through the Swift executor: the pool thread hands
    /// the outcome over itself, and the deadline is a Dispatch timer. In a busy process (2 cores,
    /// every task of a test suite ready at once) the executor may not run a task for seconds, and a
    /// deadline counted through it measured that, not the Secret Service: the keyring read as
    /// unavailable while gnome-keyring answered in milliseconds.
    func run(_ body: @escaping Body) async throws {
        let cancellation = Cancellation()
        let timeout = timeout
        let outcome: Outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let pending = NIOLockedValueBox<CheckedContinuation<Outcome, Never>?>(continuation)
                let finish: @Sendable (Outcome) -> Void = { outcome in
                    pending.withLockedValue { waiting in
                        waiting?.resume(returning: outcome)
                        waiting = nil
                    }
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval + 1) {
                    finish(.failed("no answer", timedOut: true))
                }
                Self.threads.submit { state in
                    guard case .active = state else {
                        finish(.failed("the keyring's threads have stopped", timedOut: false))
                        return
                    }
                    finish(Self.call(body, cancellation, timeout: timeout))
                }
            }
        } onCancel: {
            cancellation.cancel(timedOut: false)
        }
        switch outcome {
        case .done: return
        case .failed(_, timedOut: true):
            throw ProviderError(.network, "the Secret Service did not answer within \(timeout.seconds) s (while trying to \(doing))")
        case .failed(let reason, timedOut: false):
            if Task.isCancelled { throw ProviderError(.cancelled, "cancelled while waiting for the Secret Service to \(doing)") }
            throw ProviderError(.unsupported, "the Secret Service could not \(doing): \(reason)")
        }
    }

    /// Makes the call on this (blocking) thread, its cancellable cancelled at the deadline.
    private static func call(_ body: Body, _ cancellation: Cancellation, timeout: Duration) -> Outcome {
        let timer = DispatchWorkItem { cancellation.cancel(timedOut: true) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval, execute: timer)
        defer {
            timer.cancel()
            cancellation.release()
        }
        var message: UnsafeMutablePointer<CChar>?
        let status = cancellation.withPointer { body($0, &message) }
        defer { free(message) }
        if status == 0 { return .done }
        return .failed(message.map { String(cString: $0) } ?? "no reason given", timedOut: cancellation.timedOut)
    }

    /// The threads the calls block on: two of their own, not the blocking pool the rest of the
    /// process shares (`BlockingIO`, as many threads as cores), so that a call waiting for the
    /// Secret Service (up to two minutes for an unlock prompt) holds no file work up, and its
    /// deadline is not spent queued behind file work on a busy machine.
    private static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()

    private enum Outcome: Sendable {
        case done
        case failed(String, timedOut: Bool)
    }

    /// The `GCancellable` of one call: cancelled from any thread until the call has returned and
    /// released it (a timer that fires later finds nothing to cancel).
    private final class Cancellation: @unchecked Sendable {
        private let lock = NIOLock()
        private var pointer: OpaquePointer?
        private var released = false
        private var timedOutFlag = false

        init() { pointer = cproviderkit_secret_cancellable_new() }

        var timedOut: Bool { lock.withLock { timedOutFlag } }

        func withPointer<T>(_ body: (OpaquePointer?) -> T) -> T {
            // Read once: the pointer stays valid until release(), which runs after the call.
            body(lock.withLock { pointer })
        }

        func cancel(timedOut: Bool) {
            lock.withLock {
                guard !released, let pointer else { return }
                if timedOut { timedOutFlag = true }
                cproviderkit_secret_cancellable_cancel(pointer)
            }
        }

        func release() {
            lock.withLock {
                released = true
                cproviderkit_secret_cancellable_free(pointer)
                pointer = nil
            }
        }
    }
}

extension SecretServiceCall {
    /// Calls `body` with the C strings of `strings` (copies, freed afterwards).
    static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}

extension Duration {
    /// The duration in seconds, as `TimeInterval`.
    fileprivate var timeInterval: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }

    /// The duration in whole seconds, for a message.
    fileprivate var seconds: Int64 { components.seconds }
}

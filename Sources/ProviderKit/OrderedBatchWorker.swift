import Dispatch
import NIOConcurrencyHelpers

/// Batches handed in order to one worker on a Dispatch thread, which folds each into an
/// accumulated value: the mechanism of ``OverlappedDigester`` (the value is a running digest) and
/// ``OverlappedMapper`` (the value is the outputs so far).
///
/// The worker runs while batches wait and stops when none is left; the next batch starts it again.
/// Stopping and handing the value to the callers that wait for it is one step under the lock, so
/// a batch submitted after that step starts a new worker, never one that a stopping worker forgets.
///
/// `fold` runs on the worker only, one batch at a time, in submission order. If it throws, the
/// worker stops for good: no later batch is folded, every later ``enqueue(_:)`` throws that error,
/// and ``drained()`` throws it.
///
/// With a `capacity`, ``submit(_:)`` waits while more than `capacity` batches wait beyond the one
/// being folded, so a producer that outruns the worker is held back (memory stays bounded); the
/// worker lets it go on as soon as it takes a batch, before folding it.
///
/// The worker never runs as a Swift task: where tasks run on the HTTP client's event loops, a task
/// would run on the very loop that receives the bytes it works on.
final class OrderedBatchWorker<Batch: Sendable, Value: Sendable, Failure: Error>: Sendable {
    private struct State {
        /// The value of every batch folded so far; `nil` while the worker works (it holds the value).
        var value: Value?
        var waiting: [Batch] = []
        var working = false
        /// The first error of `fold`; no batch is folded after it.
        var failure: Failure?
        /// The producer, waiting for room among the waiting batches.
        var submitter: CheckedContinuation<Void, Never>?
        /// Callers waiting for every batch to be folded.
        var drainers: [(CheckedContinuation<Result<Value, Failure>, Never>, replacement: Value?)] = []
    }

    private enum Step {
        case fold(Batch, resume: CheckedContinuation<Void, Never>?)
        case stop(resume: CheckedContinuation<Void, Never>?, drained: [(CheckedContinuation<Result<Value, Failure>, Never>, Result<Value, Failure>)])
    }

    private let state: NIOLockedValueBox<State>
    private let capacity: Int
    private let fold: @Sendable (inout Value, Batch) throws(Failure) -> Void

    /// A worker that starts from `initial` and folds each batch into it with `fold`; `capacity`
    /// (at least 0) batches may wait beyond the one being folded before ``submit(_:)`` waits.
    init(_ initial: Value, capacity: Int = .max, fold: @escaping @Sendable (inout Value, Batch) throws(Failure) -> Void) {
        state = NIOLockedValueBox(State(value: initial))
        self.capacity = max(0, capacity)
        self.fold = fold
    }

    /// Adds `batch` to the waiting batches, starting the worker if it stopped, and says whether
    /// there is room for more without waiting; throws the worker's error instead if it met one.
    @discardableResult
    func enqueue(_ batch: Batch) throws(Failure) -> Bool {
        let added = state.withLockedValue { state -> Result<(start: Bool, room: Bool), Failure> in
            if let failure = state.failure { return .failure(failure) }
            state.waiting.append(batch)
            let start = !state.working
            state.working = true
            return .success((start, state.waiting.count <= capacity))
        }
        let (start, room) = try added.get()
        if start { DispatchQueue.global(qos: .userInitiated).async { self.work() } }
        return room
    }

    /// Adds `batch` like ``enqueue(_:)``, then returns once no more than `capacity` batches wait
    /// (at once if the worker stopped on an error: ``drained()`` reports it).
    func submit(_ batch: Batch) async throws(Failure) {
        if try enqueue(batch) { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let room = state.withLockedValue { state -> Bool in
                if !state.working || state.waiting.count <= capacity { return true }
                state.submitter = continuation
                return false
            }
            if room { continuation.resume() }
        }
    }

    /// The value once every submitted batch is folded, or the first error of `fold`. With a
    /// `replacement`, the value is handed over (moved, so the caller can extend it without a copy)
    /// and the worker keeps `replacement` instead.
    func drained(leaving replacement: Value? = nil) async throws(Failure) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            let done = state.withLockedValue { state -> Result<Value, Failure>? in
                if state.working { state.drainers.append((continuation, replacement)); return nil }
                return Self.result(of: &state, leaving: replacement)
            }
            if let done { continuation.resume(returning: done) }
        }
        return try result.get()
    }

    private static func result(of state: inout State, leaving replacement: Value?) -> Result<Value, Failure> {
        if let failure = state.failure { return .failure(failure) }
        // The value is out only while the worker works, and no one drains a working worker.
        guard let value = state.value else { preconditionFailure("OrderedBatchWorker drained while folding") }
        if let replacement { state.value = replacement }
        return .success(value)
    }

    /// Folds the waiting batches in order until none is left or one fails.
    private func work() {
        // The worker holds the value while it works, so each batch extends it in place: a value
        // also held by the state (or by a step) would be copied whole for every batch.
        var value = state.withLockedValue { $0.value.take() }
        while true {
            let step = state.withLockedValue { state -> Step in
                guard state.failure == nil, !state.waiting.isEmpty else {
                    state.value = value.take()
                    state.waiting = []
                    state.working = false
                    // A producer held back by batches that will not be folded now goes on.
                    let resume = state.submitter
                    state.submitter = nil
                    let drainers = state.drainers
                    state.drainers = []
                    let drained = drainers.map { drainer, replacement in
                        (drainer, Self.result(of: &state, leaving: replacement))
                    }
                    return .stop(resume: resume, drained: drained)
                }
                let batch = state.waiting.removeFirst()
                var resume: CheckedContinuation<Void, Never>?
                if state.waiting.count <= capacity {
                    resume = state.submitter
                    state.submitter = nil
                }
                return .fold(batch, resume: resume)
            }
            switch step {
            case .stop(let resume, let drained):
                resume?.resume()
                for (drainer, result) in drained { drainer.resume(returning: result) }
                return
            case .fold(let batch, let resume):
                resume?.resume()
                // Present from the start to the stop: only the worker takes it while working.
                guard var current = value.take() else { continue }
                do throws(Failure) {
                    try fold(&current, batch)
                } catch {
                    state.withLockedValue { $0.failure = error }
                }
                value = current
            }
        }
    }
}

import Dispatch
import NIOConcurrencyHelpers

/// Maps what a producer makes on another core while the producer goes on: inputs are gathered
/// into batches of `batchSize`, and the batches are mapped in order by one worker on a Dispatch
/// thread. The outputs keep the order of the inputs.
///
/// Made for a listing whose answer is parsed as it streams: the parser hands each entry to
/// ``add(_:)`` and goes on parsing the next while an earlier batch becomes items (paths checked,
/// properties read). With fewer inputs than one batch nothing leaves the caller's thread: they are
/// mapped by ``finish()``, so small listings pay no hand-off.
///
/// A `transform` that throws stops the mapping: no later input is mapped, the next ``add(_:)``
/// that completes a batch throws that error (so the producer can stop early), and ``finish()``
/// throws it. The error is the one of the first failing input, in input order, as if each had
/// been mapped when it was added. A producer that fails itself should still call ``finish()``
/// and report its own error only when ``finish()`` does not throw: then an earlier input's error
/// wins, as it would have without the overlap.
///
/// The worker never runs as a Swift task: where tasks run on the HTTP client's event loops, a task
/// would run on the very loop that receives the answer (see ``OverlappedDigester``).
///
/// ```swift
/// var mapper = OverlappedMapper { (entry: Entry) in try Item(entry) }
/// for try await piece in body { try parser.feed(piece) { try mapper.add($0) } }
/// let items = try await mapper.finish()
/// ```
public struct OverlappedMapper<Input: Sendable, Output: Sendable>: Sendable {
    private let pipeline: MapPipeline<Input, Output>
    private var gathered: [Input] = []
    private let batchSize: Int

    /// A mapper whose `transform` returns the output of an input, or `nil` to leave it out.
    /// Inputs are handed to the worker in batches of `batchSize` (at least 1; 256 by default).
    public init(batchSize: Int = 256, transform: @escaping @Sendable (Input) throws -> Output?) {
        self.batchSize = max(1, batchSize)
        pipeline = MapPipeline(transform: transform)
        gathered.reserveCapacity(self.batchSize)
    }

    /// Adds the next input. Throws the error of an earlier input's `transform`, if the worker met one.
    public mutating func add(_ input: Input) throws {
        gathered.append(input)
        guard gathered.count >= batchSize else { return }
        let batch = gathered
        gathered = []
        gathered.reserveCapacity(batchSize)
        try pipeline.submit(batch)
    }

    /// The outputs of every input added, in their order, once all are mapped; throws the error of
    /// the first input whose `transform` threw.
    public mutating func finish() async throws -> [Output] {
        var outputs = try await pipeline.drained()
        let rest = gathered
        gathered = []
        outputs.reserveCapacity(outputs.count + rest.count)
        for input in rest {
            if let output = try pipeline.transform(input) { outputs.append(output) }
        }
        return outputs
    }
}

/// The batches waiting to be mapped and the one worker mapping them in order on a Dispatch thread.
/// The worker runs while batches wait and stops when none is left; the next batch starts it again.
private final class MapPipeline<Input: Sendable, Output: Sendable>: Sendable {
    private struct State {
        var waiting: [[Input]] = []
        var working = false
        /// The outputs of every batch mapped so far.
        var outputs: [Output] = []
        /// The first error of `transform`; no batch is mapped after it.
        var failure: (any Error)?
        /// Callers waiting for every batch to be mapped.
        var drainers: [CheckedContinuation<Result<[Output], any Error>, Never>] = []
    }

    private let state = NIOLockedValueBox(State())
    /// What maps one input; ``OverlappedMapper/finish()`` maps the unbatched rest with it too.
    let transform: @Sendable (Input) throws -> Output?

    init(transform: @escaping @Sendable (Input) throws -> Output?) {
        self.transform = transform
    }

    /// Adds `batch` to the waiting batches, starting the worker if it stopped; throws the
    /// worker's error instead if it met one.
    func submit(_ batch: [Input]) throws {
        let start = try state.withLockedValue { state -> Bool in
            if let failure = state.failure { throw failure }
            state.waiting.append(batch)
            let start = !state.working
            state.working = true
            return start
        }
        if start { DispatchQueue.global(qos: .userInitiated).async { self.work() } }
    }

    /// The outputs once every submitted batch is mapped, or the first error.
    func drained() async throws -> [Output] {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[Output], any Error>, Never>) in
            let done = state.withLockedValue { state -> Result<[Output], any Error>? in
                if state.working { state.drainers.append(continuation); return nil }
                return Self.result(taking: &state)
            }
            if let done { continuation.resume(returning: done) }
        }
        return try result.get()
    }

    /// The outputs (moved out, so a caller can append without a copy) or the failure.
    private static func result(taking state: inout State) -> Result<[Output], any Error> {
        if let failure = state.failure { return .failure(failure) }
        let outputs = state.outputs
        state.outputs = []
        return .success(outputs)
    }

    private enum Step {
        case map([Input])
        case stop(drainers: [CheckedContinuation<Result<[Output], any Error>, Never>], result: Result<[Output], any Error>?)
    }

    /// Maps the waiting batches in order until none is left or one fails.
    private func work() {
        while true {
            // Stopping and handing the result to the drainers is one step under the lock: a batch
            // submitted after it starts a new worker, never one that a stopping worker forgets.
            let step = state.withLockedValue { state -> Step in
                guard state.failure == nil, !state.waiting.isEmpty else {
                    state.waiting = []
                    state.working = false
                    let drainers = state.drainers
                    state.drainers = []
                    return .stop(drainers: drainers, result: drainers.isEmpty ? nil : Self.result(taking: &state))
                }
                return .map(state.waiting.removeFirst())
            }
            let batch: [Input]
            switch step {
            case .stop(let drainers, let result):
                // One caller drains a mapper (``OverlappedMapper/finish()`` is mutating).
                for drainer in drainers { drainer.resume(returning: result ?? .success([])) }
                return
            case .map(let next):
                batch = next
            }
            // Only this worker changes the outputs while it works: taken out, extended, put back.
            var outputs = state.withLockedValue { state -> [Output] in
                let outputs = state.outputs
                state.outputs = []
                return outputs
            }
            var failure: (any Error)?
            for input in batch {
                do {
                    if let output = try transform(input) { outputs.append(output) }
                } catch {
                    failure = error
                    break
                }
            }
            state.withLockedValue { state in
                state.outputs = outputs
                if let failure { state.failure = failure }
            }
        }
    }
}

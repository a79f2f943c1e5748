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
package struct OverlappedMapper<Input: Sendable, Output: Sendable>: Sendable {
    private let worker: OrderedBatchWorker<[Input], [Output], any Error>
    private let transform: @Sendable (Input) throws -> Output?
    private var gathered: [Input] = []
    private let batchSize: Int

    /// A mapper whose `transform` returns the output of an input, or `nil` to leave it out.
    /// Inputs are handed to the worker in batches of `batchSize` (at least 1; 256 by default).
    package init(batchSize: Int = 256, transform: @escaping @Sendable (Input) throws -> Output?) {
        self.batchSize = max(1, batchSize)
        self.transform = transform
        worker = OrderedBatchWorker([]) { outputs, batch in
            for input in batch {
                if let output = try transform(input) { outputs.append(output) }
            }
        }
        gathered.reserveCapacity(self.batchSize)
    }

    /// Adds the next input. Throws the error of an earlier input's `transform`, if the worker met one.
    package mutating func add(_ input: Input) throws {
        gathered.append(input)
        guard gathered.count >= batchSize else { return }
        let batch = gathered
        gathered = []
        gathered.reserveCapacity(batchSize)
        try worker.enqueue(batch)
    }

    /// The outputs of every input added, in their order, once all are mapped; throws the error of
    /// the first input whose `transform` threw.
    package mutating func finish() async throws -> [Output] {
        var outputs = try await worker.drained(leaving: [])
        let rest = gathered
        gathered = []
        outputs.reserveCapacity(outputs.count + rest.count)
        for input in rest {
            if let output = try transform(input) { outputs.append(output) }
        }
        return outputs
    }
}

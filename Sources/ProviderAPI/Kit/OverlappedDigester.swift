import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI

/// A ``Digester`` that hashes beside the transfer: pieces are gathered into batches of about
/// `batchBytes`, and the batches are hashed in order by one worker on a Dispatch thread while the
/// caller goes on receiving and writing. Up to `queuedBatches` full batches wait for the worker
/// beyond the one it hashes; a caller that outruns the hashing waits, at its next full batch, until
/// the worker takes one. So the hash never falls behind by more than `queuedBatches + 2` batches
/// (those waiting, the one being hashed and the one gathering), and memory stays at about that
/// many batches.
///
/// The worker takes the next waiting batch itself as soon as it is done with one: the hashing
/// never waits for the caller's task to be scheduled again (with batches of 1 MiB, a thread
/// hand-off per batch cost a 256 MiB MD5 download about as much time again as the hash itself).
///
/// The hashing never runs as a Swift task: when an executable runs its tasks on the HTTP client's
/// event loops (`EventLoopTasks` in HTTPProviderKit), a task would run on the very loop that receives the download
/// and stall its connection for each batch. A Dispatch thread is outside both pools.
///
/// On a machine with a spare core the digest costs the transfer almost nothing (an MD5 of 256 MiB
/// is about 0.30 s of CPU, in line with the download before). The result is the same digest as
/// ``Digester`` over the same bytes.
///
/// ```swift
/// var digester = OverlappedDigester(Digester(.md5)!)
/// for try await piece in body { await digester.update(piece); try await sink.write(piece) }
/// let hex = await digester.finalize()
/// ```
public struct OverlappedDigester: Sendable {
    private let pipeline: HashPipeline
    private var gathered: [ByteBuffer] = []
    private var gatheredBytes = 0
    private let batchBytes: Int
    /// Called on the hashing thread before each batch is hashed (tests watch where hashing runs).
    var willHash: (@Sendable () -> Void)?
    /// The algorithm.
    public let algorithm: DigestAlgorithm

    /// Wraps `digester`; pieces are hashed in batches of about `batchBytes` (1 MiB by default), of
    /// which up to `queuedBatches` (at least 0; 2 by default) wait for the worker beyond the one it hashes.
    public init(_ digester: Digester, batchBytes: Int = 1 << 20, queuedBatches: Int = 2) {
        pipeline = HashPipeline(digester, capacity: max(0, queuedBatches))
        algorithm = digester.algorithm
        self.batchBytes = max(1, batchBytes)
    }

    /// Adds `piece`; waits only when a full batch is ready and `queuedBatches` others already wait for the worker.
    public mutating func update(_ piece: ByteBuffer) async {
        guard piece.readableBytes > 0 else { return }
        gathered.append(piece)
        gatheredBytes += piece.readableBytes
        guard gatheredBytes >= batchBytes else { return }
        let batch = gathered
        gathered = []
        gatheredBytes = 0
        await pipeline.submit(batch, willHash: willHash)
    }

    /// The digest of every piece, as lowercase hex.
    public mutating func finalize() async -> String {
        var digester = await pipeline.drained()
        for piece in gathered { digester.update(piece) }
        return digester.finalize()
    }
}

/// The batches waiting to be hashed and the one worker hashing them in order on a Dispatch thread.
/// The worker runs while batches wait, and stops when none is left; the next batch starts it again.
private final class HashPipeline: Sendable {
    private struct Job {
        var batch: [ByteBuffer]
        var willHash: (@Sendable () -> Void)?
    }

    private struct State {
        /// The digest of every batch hashed so far.
        var digester: Digester
        var waiting: [Job] = []
        var working = false
        /// The caller, waiting for room among the waiting batches.
        var submitter: CheckedContinuation<Void, Never>?
        /// Callers waiting for every batch to be hashed.
        var drainers: [CheckedContinuation<Digester, Never>] = []
    }

    private enum Step {
        case hash(Job, resume: CheckedContinuation<Void, Never>?)
        case stop(drainers: [CheckedContinuation<Digester, Never>], digester: Digester)
    }

    private let state: NIOLockedValueBox<State>
    private let capacity: Int

    init(_ digester: Digester, capacity: Int) {
        state = NIOLockedValueBox(State(digester: digester))
        self.capacity = capacity
    }

    /// Adds `batch` to the waiting batches (starting the worker if it stopped), and returns once
    /// no more than `capacity` batches wait.
    func submit(_ batch: [ByteBuffer], willHash: (@Sendable () -> Void)?) async {
        let (start, room) = state.withLockedValue { state -> (Bool, Bool) in
            state.waiting.append(Job(batch: batch, willHash: willHash))
            let start = !state.working
            state.working = true
            return (start, state.waiting.count <= capacity)
        }
        if start { DispatchQueue.global(qos: .userInitiated).async { self.work() } }
        if room { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let room = state.withLockedValue { state -> Bool in
                if state.waiting.count <= capacity { return true }
                state.submitter = continuation
                return false
            }
            if room { continuation.resume() }
        }
    }

    /// The digester once every submitted batch is hashed.
    func drained() async -> Digester {
        await withCheckedContinuation { (continuation: CheckedContinuation<Digester, Never>) in
            let done = state.withLockedValue { state -> Digester? in
                if !state.working { return state.digester }
                state.drainers.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Hashes the waiting batches in order until none is left.
    private func work() {
        while true {
            let step = state.withLockedValue { state -> Step in
                guard !state.waiting.isEmpty else {
                    state.working = false
                    let drainers = state.drainers
                    state.drainers = []
                    return .stop(drainers: drainers, digester: state.digester)
                }
                let job = state.waiting.removeFirst()
                var resume: CheckedContinuation<Void, Never>?
                if state.waiting.count <= capacity {
                    resume = state.submitter
                    state.submitter = nil
                }
                return .hash(job, resume: resume)
            }
            switch step {
            case .stop(let drainers, let digester):
                for drainer in drainers { drainer.resume(returning: digester) }
                return
            case .hash(let job, let resume):
                resume?.resume()
                job.willHash?()
                // Only this worker changes the digester while it works: taken out, hashed, put back.
                var digester = state.withLockedValue { $0.digester }
                for piece in job.batch { digester.update(piece) }
                state.withLockedValue { $0.digester = digester }
            }
        }
    }
}

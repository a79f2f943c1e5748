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
/// The hashing never runs as a Swift task: it would hold one of Swift's few cooperative threads
/// for each batch, and in a host that runs its tasks on swift-nio's event loops, the very loop
/// that receives the download. A Dispatch thread is outside both pools.
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
package struct OverlappedDigester: Sendable {
    private let worker: OrderedBatchWorker<Batch, Digester, Never>
    private var gathered: [ByteBuffer] = []
    private var gatheredBytes = 0
    private let batchBytes: Int
    /// Called on the hashing thread before each batch is hashed (tests watch where hashing runs).
    var willHash: (@Sendable () -> Void)?
    /// The algorithm.
    package let algorithm: DigestAlgorithm

    /// Wraps `digester`; pieces are hashed in batches of about `batchBytes` (1 MiB by default), of
    /// which up to `queuedBatches` (at least 0; 2 by default) wait for the worker beyond the one it hashes.
    package init(_ digester: Digester, batchBytes: Int = 1 << 20, queuedBatches: Int = 2) {
        worker = OrderedBatchWorker(digester, capacity: queuedBatches) { digester, batch in
            batch.willHash?()
            for piece in batch.pieces { digester.update(piece) }
        }
        algorithm = digester.algorithm
        self.batchBytes = max(1, batchBytes)
    }

    /// Adds `piece`; waits only when a full batch is ready and `queuedBatches` others already wait for the worker.
    package mutating func update(_ piece: ByteBuffer) async {
        guard piece.readableBytes > 0 else { return }
        gathered.append(piece)
        gatheredBytes += piece.readableBytes
        guard gatheredBytes >= batchBytes else { return }
        let batch = gathered
        gathered = []
        gatheredBytes = 0
        await worker.submit(Batch(pieces: batch, willHash: willHash))
    }

    /// The digest of every piece, as lowercase hex.
    package mutating func finalize() async -> String {
        var digester = await worker.drained()
        for piece in gathered { digester.update(piece) }
        return digester.finalize()
    }

    /// Pieces hashed together, and what the tests watch before they are.
    private struct Batch: Sendable {
        var pieces: [ByteBuffer]
        var willHash: (@Sendable () -> Void)?
    }
}

import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI

/// A ``Digester`` that hashes beside the transfer: pieces are gathered into batches of about
/// `batchBytes`, and each batch is hashed on a Dispatch worker thread while the caller goes on
/// receiving and writing the next one. At most one batch is being hashed and one gathered, so
/// memory stays at about two batches, and a caller that outruns the hashing waits for it at the
/// next batch.
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
    /// The digest of every batch hashed so far, once `running` (which continues from it) is done.
    private var idle: Digester
    private var running: HashJob?
    private var gathered: [ByteBuffer] = []
    private var gatheredBytes = 0
    private let batchBytes: Int
    /// Called on the hashing thread before each batch is hashed (tests watch where hashing runs).
    var willHash: (@Sendable () -> Void)?
    /// The algorithm.
    public let algorithm: DigestAlgorithm

    /// Wraps `digester`; pieces are hashed in batches of about `batchBytes` (1 MiB by default).
    public init(_ digester: Digester, batchBytes: Int = 1 << 20) {
        idle = digester
        algorithm = digester.algorithm
        self.batchBytes = max(1, batchBytes)
    }

    /// Adds `piece`; waits only when a full batch is ready and the previous one is still being hashed.
    public mutating func update(_ piece: ByteBuffer) async {
        guard piece.readableBytes > 0 else { return }
        gathered.append(piece)
        gatheredBytes += piece.readableBytes
        if gatheredBytes >= batchBytes { await launch() }
    }

    /// The digest of every piece, as lowercase hex.
    public mutating func finalize() async -> String {
        var digester = await settle()
        for piece in gathered { digester.update(piece) }
        gathered = []
        gatheredBytes = 0
        idle = digester
        return digester.finalize()
    }

    /// Starts hashing the gathered batch, after the previous batch is done.
    private mutating func launch() async {
        let previous = await settle()
        running = HashJob(from: previous, batch: gathered, willHash: willHash)
        gathered = []
        gatheredBytes = 0
    }

    /// The digester once no batch is being hashed.
    private mutating func settle() async -> Digester {
        guard let running else { return idle }
        self.running = nil
        idle = await running.result()
        return idle
    }
}

/// One batch hashed on a Dispatch worker thread; its result is taken once.
private final class HashJob: Sendable {
    private enum State {
        case hashing(waiter: CheckedContinuation<Digester, Never>?)
        case done(Digester)
        case taken
    }

    private let state = NIOLockedValueBox(State.hashing(waiter: nil))

    /// Starts hashing `batch` into a copy of `digester`.
    init(from digester: Digester, batch: [ByteBuffer], willHash: (@Sendable () -> Void)?) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            willHash?()
            var digester = digester
            for piece in batch { digester.update(piece) }
            finish(digester)
        }
    }

    private func finish(_ digester: Digester) {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Digester, Never>? in
            guard case .hashing(let waiter) = state else { return nil }
            if let waiter {
                state = .taken
                return waiter
            }
            state = .done(digester)
            return nil
        }
        waiter?.resume(returning: digester)
    }

    /// The digester after the batch; returns at once (no suspension) when the hashing is already done.
    func result() async -> Digester {
        if let done = take() { return done }
        return await withCheckedContinuation { continuation in
            let done = state.withLockedValue { state -> Digester? in
                switch state {
                case .done(let digester):
                    state = .taken
                    return digester
                case .hashing:
                    state = .hashing(waiter: continuation)
                    return nil
                case .taken:
                    preconditionFailure("a batch's hashing was awaited twice")
                }
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    private func take() -> Digester? {
        state.withLockedValue { state in
            guard case .done(let digester) = state else { return nil }
            state = .taken
            return digester
        }
    }
}

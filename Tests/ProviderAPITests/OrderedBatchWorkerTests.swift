import Dispatch
import NIOConcurrencyHelpers
import Testing
@testable import ProviderKit

/// The error a fold throws in these tests.
private struct Refused: Error, Equatable {
    let batch: Int
}

/// A reference whose uniqueness says whether a value was copied.
private final class Token: Sendable {}

/// A value that notes, at each batch, whether the worker held it alone.
private struct Held: Sendable {
    var token = Token()
    var alone: [Bool] = []
}

/// The mechanism under ``OverlappedDigester`` and ``OverlappedMapper``; those suites check it
/// through them (order, back-pressure, the first error); these cases check what neither reaches.
@Suite("OrderedBatchWorker")
struct OrderedBatchWorkerTests {
    @Test("a producer held back is let go when the worker stops on an error; later batches are refused and the drain throws it",
          .timeLimit(.minutes(1)))
    func heldProducerLetGoOnFailure() async throws {
        let gate = DispatchSemaphore(value: 0)
        let folded = NIOLockedValueBox<[Int]>([])
        let worker = OrderedBatchWorker<Int, Int, Refused>(0, capacity: 0) { sum, batch throws(Refused) in
            if batch == 1 { gate.wait() }
            folded.withLockedValue { $0.append(batch) }
            if batch == 1 { throw Refused(batch: batch) }
            sum += batch
        }
        try worker.enqueue(1)
        // Batch 2 waits beyond batch 1, which the worker folds: with capacity 0 the producer is held.
        let producer = Task { () async -> Refused? in
            do throws(Refused) { try await worker.submit(2) } catch { return error }
            return nil
        }
        try await Task.sleep(for: .milliseconds(50))
        gate.signal()
        // Returns without an error (the worker stopped and let it go, or there was room); the
        // error comes from what follows.
        #expect(await producer.value == nil)
        #expect(throws: Refused(batch: 1)) { try worker.enqueue(3) }
        await #expect(throws: Refused(batch: 1)) { try await worker.drained() }
        #expect(folded.withLockedValue { $0 } == [1])  // nothing after the failing batch is folded
    }

    @Test("a drain copies the value unless told what to leave; batches after a drain fold into what is left")
    func drainCopiesOrHandsOver() async throws {
        let worker = OrderedBatchWorker<[Int], [Int], Never>([]) { all, batch in all += batch }
        worker.enqueue([1, 2])
        worker.enqueue([3])
        #expect(await worker.drained() == [1, 2, 3])
        #expect(await worker.drained(leaving: [9]) == [1, 2, 3])
        #expect(await worker.drained() == [9])
        worker.enqueue([4])
        #expect(await worker.drained() == [9, 4])
    }

    @Test("drains waiting together all get the value of every batch submitted before them", .timeLimit(.minutes(1)))
    func concurrentDrains() async throws {
        let gate = DispatchSemaphore(value: 0)
        let worker = OrderedBatchWorker<Int, Int, Never>(0) { sum, batch in
            if batch == 0 { gate.wait() }
            sum += batch
        }
        for batch in 0...100 { worker.enqueue(batch) }
        async let first = worker.drained()
        async let second = worker.drained()
        try await Task.sleep(for: .milliseconds(20))
        gate.signal()
        #expect(await [first, second] == [5050, 5050])
    }

    @Test("the worker extends the value in place: it holds it alone at every batch (a shared value would be copied whole each time)")
    func foldsInPlace() async throws {
        let worker = OrderedBatchWorker<Int, Held, Never>(Held()) { held, _ in
            held.alone.append(isKnownUniquelyReferenced(&held.token))
        }
        for batch in 0..<200 { worker.enqueue(batch) }
        let held = await worker.drained(leaving: Held())
        #expect(held.alone.count == 200)
        #expect(!held.alone.contains(false))
    }
}

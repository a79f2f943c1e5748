import Dispatch
import Foundation
import NIOConcurrencyHelpers
import ProviderKit
import Testing

/// What a transform saw: the inputs it was called with, in call order.
private final class Calls: Sendable {
    private let box = NIOLockedValueBox<[Int]>([])
    var inputs: [Int] { box.withLockedValue { $0 } }
    func record(_ input: Int) { box.withLockedValue { $0.append(input) } }
}

private struct Failure: Error, Equatable {
    var input: Int
}

@Suite("OverlappedMapper")
struct OverlappedMapperTests {
    @Test("outputs in input order, with the left-out inputs left out, whatever the batch size", arguments: [1, 3, 16, 256, 5_000])
    func order(batchSize: Int) async throws {
        let inputs = Array(0..<2_345)
        var mapper = OverlappedMapper(batchSize: batchSize) { (input: Int) -> String? in
            input % 7 == 3 ? nil : "item \(input)"
        }
        for input in inputs { try mapper.add(input) }
        let outputs = try await mapper.finish()
        #expect(outputs == inputs.filter { $0 % 7 != 3 }.map { "item \($0)" })
    }

    @Test("a full batch is mapped while the producer goes on adding")
    func overlaps() async throws {
        // The first input's transform waits until the producer has added the third batch: were a
        // batch mapped inside `add`, the producer would never get there and the wait would time out.
        let third = DispatchSemaphore(value: 0)
        let waitedInVain = NIOLockedValueBox(false)
        let calls = Calls()
        var mapper = OverlappedMapper(batchSize: 4) { (input: Int) -> Int? in
            if input == 0, third.wait(timeout: .now() + 120) == .timedOut { waitedInVain.withLockedValue { $0 = true } }
            calls.record(input)
            return input
        }
        for input in 0..<12 { try mapper.add(input) }
        third.signal()
        let outputs = try await mapper.finish()
        #expect(!waitedInVain.withLockedValue { $0 }, "the first batch was mapped before the producer could go on")
        #expect(outputs == Array(0..<12))
        #expect(calls.inputs == Array(0..<12))
    }

    @Test("fewer inputs than a batch are mapped by finish, on the caller's side")
    func small() async throws {
        let calls = Calls()
        var mapper = OverlappedMapper(batchSize: 256) { (input: Int) -> Int? in
            calls.record(input)
            return input * 2
        }
        for input in 0..<255 { try mapper.add(input) }
        // Nothing was handed to a worker: no transform ran before finish.
        #expect(calls.inputs.isEmpty)
        #expect(try await mapper.finish() == (0..<255).map { $0 * 2 })
        #expect(calls.inputs == Array(0..<255))
    }

    @Test("a transform's error: finish throws the first failing input's, nothing after it is mapped, later batches are refused")
    func failure() async throws {
        let calls = Calls()
        var mapper = OverlappedMapper(batchSize: 4) { (input: Int) -> Int? in
            calls.record(input)
            if input == 5 || input == 9 { throw Failure(input: input) }
            return input
        }
        for input in 0..<8 { try mapper.add(input) }
        let error = await #expect(throws: Failure.self) { _ = try await mapper.finish() }
        #expect(error == Failure(input: 5))
        // The worker stopped at input 5: not 6 or 7 of its batch, nothing of a later one.
        #expect(calls.inputs == Array(0...5))
        // The producer hears of it at its next full batch.
        var refused: Failure?
        do {
            for input in 8..<12 { try mapper.add(input) }
        } catch let failure as Failure {
            refused = failure
        }
        #expect(refused == Failure(input: 5))
        #expect(calls.inputs == Array(0...5))
    }

    @Test("an error in the last, unbatched inputs comes from finish, after the batches' outputs are checked")
    func failureInRest() async throws {
        var mapper = OverlappedMapper(batchSize: 4) { (input: Int) -> Int? in
            if input == 10 || input == 13 { throw Failure(input: input) }
            return input
        }
        for input in 0..<14 { try mapper.add(input) }
        // Inputs 8…11 were a batch (10 fails there), 12 and 13 are the rest: the batch's error wins.
        let error = await #expect(throws: Failure.self) { _ = try await mapper.finish() }
        #expect(error == Failure(input: 10))

        var rest = OverlappedMapper(batchSize: 4) { (input: Int) -> Int? in
            if input == 13 { throw Failure(input: input) }
            return input
        }
        for input in 0..<14 { try rest.add(input) }
        let restError = await #expect(throws: Failure.self) { _ = try await rest.finish() }
        #expect(restError == Failure(input: 13))
    }

    @Test("mapping many small batches through many workers' starts and stops loses none")
    func manyStarts() async throws {
        for round in 0..<50 {
            var mapper = OverlappedMapper(batchSize: 2) { (input: Int) -> Int? in input }
            let count = 1 + round * 7
            for input in 0..<count {
                try mapper.add(input)
                if input % 5 == 0 { await Task.yield() }
            }
            #expect(try await mapper.finish() == Array(0..<count))
        }
    }
}

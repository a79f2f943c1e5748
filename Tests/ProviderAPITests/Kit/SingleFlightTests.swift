import NIOConcurrencyHelpers
import ProviderAPI
import ProviderKit
import StrataTestSupport
import Testing

/// A gate the runs under test wait at, so that every caller arrives while one runs.
private final class Gate: Sendable {
    private let opened = NIOLockedValueBox(false)
    func open() { opened.withLockedValue { $0 = true } }
    func pass() async throws {
        while !opened.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(2)) }
    }
}

@Suite("SingleFlight")
struct SingleFlightTests {
    @Test("concurrent callers share one run and all get its value")
    func oneRun() async throws {
        let flight = SingleFlight<String>()
        let runs = NIOLockedValueBox(0)
        let gate = Gate()
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    return try await flight.run {
                        let count = runs.withLockedValue { value -> Int in
                            value += 1
                            return value
                        }
                        try await gate.pass()
                        return "token \(count)"
                    }
                }
            }
            // Every caller has joined the one run once the flight counts 20 waiting calls.
            #expect(try await waitUntil { flight.waitingCalls >= 20 }, "every caller joined the run")
            gate.open()
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(runs.withLockedValue { $0 } == 1)
        #expect(values == Array(repeating: "token 1", count: 20))
        #expect(!flight.isRunning)
    }

    @Test("a failed run is seen by every caller that waited; the next call runs again")
    func failureThenRetry() async throws {
        let flight = SingleFlight<Int>()
        let runs = NIOLockedValueBox(0)
        let gate = Gate()
        let failures = await withTaskGroup(of: ProviderError?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do {
                        _ = try await flight.run {
                            runs.withLockedValue { $0 += 1 }
                            try await gate.pass()
                            throw ProviderError(.unauthorized, "refused")
                        }
                        return nil
                    } catch {
                        return error as? ProviderError
                    }
                }
            }
            #expect((try? await waitUntil { flight.waitingCalls >= 8 }) == true, "every caller joined the run")
            gate.open()
            return await group.reduce(into: [ProviderError?]()) { $0.append($1) }
        }
        #expect(failures.count == 8)
        #expect(failures.allSatisfy { $0?.code == .unauthorized })
        #expect(runs.withLockedValue { $0 } == 1)
        let value = try await flight.run {
            runs.withLockedValue { $0 += 1 }
            return 42
        }
        #expect(value == 42)
        #expect(runs.withLockedValue { $0 } == 2)
    }

    @Test("join waits for the run under way and is nil when none runs")
    func join() async throws {
        let flight = SingleFlight<Int>()
        #expect(try await flight.join() == nil)
        let gate = Gate()
        async let first = flight.run {
            try await gate.pass()
            return 7
        }
        #expect(try await waitUntil { flight.isRunning }, "the run started")
        let joined = Task { try await flight.join() }
        #expect(try await waitUntil { flight.waitingCalls >= 2 }, "the join waits for the run")
        gate.open()
        #expect(try await first == 7)
        #expect(try await joined.value == 7)
        #expect(try await flight.join() == nil)
    }
}

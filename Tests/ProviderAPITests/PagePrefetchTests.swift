import Foundation
import NIOConcurrencyHelpers
import ProviderKit
import StrataTestSupport
import Testing

/// `PagePrefetch`: pages fetched ahead are handed out once, within their age, and never leak a fetch.
@Suite struct PagePrefetchTests {
    struct Failure: Error {}

    /// An age no test reaches, where age is not the subject: on a machine loaded by the whole
    /// suite, seconds can pass between two lines of a test (the default is 10 s).
    static let noAge: Duration = .seconds(3600)

    /// A fetch that waits until `release` is opened, counting how it ended.
    final class Gate: Sendable {
        let opened = NIOLockedValueBox(false)
        let outcomes = NIOLockedValueBox<[String]>([])

        func fetch(_ value: Int) -> @Sendable () async throws -> Int {
            { [self] in
                do {
                    while !opened.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
                    outcomes.withLockedValue { $0.append("done \(value)") }
                    return value
                } catch {
                    outcomes.withLockedValue { $0.append("cancelled \(value)") }
                    throw error
                }
            }
        }

        func open() { opened.withLockedValue { $0 = true } }

        /// Waits up to 120 s (the whole suite's load on 2 cores can starve a task for tens of
        /// seconds) for `count` fetches to have ended.
        func ended(_ count: Int) async throws -> [String] {
            let deadline = ContinuousClock.now + .seconds(120)
            while outcomes.withLockedValue({ $0.count }) < count, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
            }
            return outcomes.withLockedValue { $0 }
        }
    }

    /// Waits until a `take` has claimed the page (it leaves `pending` as it does, before it waits
    /// for the fetch): the event a taker on its way is, instead of a guess at how long it takes.
    static func untilClaimed(_ prefetch: PagePrefetch<Int, Int>) async throws {
        #expect(try await waitUntil { prefetch.pending.isEmpty }, "the taker claimed the page")
    }

    @Test func aPageIsHandedOutOnceAndOnlyForItsKey() async throws {
        let prefetch = PagePrefetch<Int, String>(maximumAge: Self.noAge)
        prefetch.start(1) { "page 1" }
        #expect(prefetch.pending == [1])
        #expect(await prefetch.take(2) == nil)
        #expect(await prefetch.take(1) == "page 1")
        #expect(await prefetch.take(1) == nil)
        #expect(prefetch.pending.isEmpty)
    }

    @Test func takeWaitsForAFetchOnItsWay() async throws {
        let gate = Gate()
        let prefetch = PagePrefetch<Int, Int>(maximumAge: Self.noAge)
        prefetch.start(7, fetch: gate.fetch(7))
        let taken = Task { await prefetch.take(7) }
        try await Self.untilClaimed(prefetch)
        gate.open()
        #expect(await taken.value == 7)
    }

    @Test func aSecondStartForAKeyOnItsWayFetchesNothingMore() async throws {
        let calls = NIOLockedValueBox(0)
        let prefetch = PagePrefetch<Int, Int>(maximumAge: Self.noAge)
        for _ in 0..<3 {
            prefetch.start(1) {
                calls.withLockedValue { $0 += 1 }
                return 1
            }
        }
        #expect(await prefetch.take(1) == 1)
        #expect(calls.withLockedValue { $0 } == 1)
    }

    @Test func pastItsCapacityTheOldestFetchIsCancelled() async throws {
        let gate = Gate()
        let prefetch = PagePrefetch<Int, Int>(capacity: 2, maximumAge: Self.noAge)
        prefetch.start(1, fetch: gate.fetch(1))
        prefetch.start(2, fetch: gate.fetch(2))
        prefetch.start(3, fetch: gate.fetch(3))
        #expect(prefetch.pending == [2, 3])
        #expect(try await gate.ended(1) == ["cancelled 1"])
        gate.open()
        #expect(await prefetch.take(1) == nil)
        #expect(await prefetch.take(3) == 3)
        #expect(await prefetch.take(2) == 2)
    }

    @Test func aPageOlderThanItsMaximumAgeIsNotHandedOut() async throws {
        let gate = Gate()
        let prefetch = PagePrefetch<Int, Int>(maximumAge: .milliseconds(5))
        prefetch.start(1, fetch: gate.fetch(1))
        try await Task.sleep(for: .milliseconds(30))
        #expect(await prefetch.take(1) == nil)
        // Its fetch was cancelled, not left to run.
        #expect(try await gate.ended(1) == ["cancelled 1"])
        #expect(prefetch.pending.isEmpty)
    }

    @Test func aFailedFetchGivesNothingForTheCallerToFetchItself() async throws {
        let prefetch = PagePrefetch<Int, Int>(maximumAge: Self.noAge)
        prefetch.start(1) { throw Failure() }
        #expect(await prefetch.take(1) == nil)
    }

    @Test func cancellingTheTakerCancelsTheFetch() async throws {
        let gate = Gate()
        let prefetch = PagePrefetch<Int, Int>(maximumAge: Self.noAge)
        prefetch.start(1, fetch: gate.fetch(1))
        let taken = Task { await prefetch.take(1) }
        try await Self.untilClaimed(prefetch)
        taken.cancel()
        #expect(await taken.value == nil)
        #expect(try await gate.ended(1) == ["cancelled 1"])
    }

    @Test func cancelAllAndReleaseCancelEveryFetch() async throws {
        let gate = Gate()
        let prefetch = PagePrefetch<Int, Int>(maximumAge: Self.noAge)
        prefetch.start(1, fetch: gate.fetch(1))
        prefetch.cancelAll()
        #expect(prefetch.pending.isEmpty)
        #expect(await prefetch.take(1) == nil)
        #expect(try await gate.ended(1) == ["cancelled 1"])

        var released: PagePrefetch<Int, Int>? = PagePrefetch<Int, Int>(maximumAge: Self.noAge)
        released?.start(2, fetch: gate.fetch(2))
        released = nil
        #expect(released == nil)
        #expect(try await gate.ended(2) == ["cancelled 1", "cancelled 2"])
    }
}

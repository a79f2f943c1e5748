import Foundation
import ProviderAPI
import StrataTestSupport
import Testing

/// One scripted page: its number, and the page it points to next (`nil` after the last).
private struct ScriptedPage: Sendable, Equatable {
    var number: Int
    var next: Int?
}

private struct ScriptError: Error, Equatable {
    var page: Int
}

/// A page source: page `n` points to `next(n)`, takes `delay`, and fails where `failing` says.
private func source(
    _ log: FetchLog, delay: Duration = .milliseconds(20), failing: Set<Int> = [], next: @escaping @Sendable (Int) -> Int?
) -> @Sendable (Int) async throws -> ScriptedPage {
    { number in
        await log.begin(number)
        do {
            try await Task.sleep(for: delay)
        } catch {
            await log.end(number, cancelled: true)
            throw error
        }
        await log.end(number, cancelled: false)
        if failing.contains(number) { throw ScriptError(page: number) }
        return ScriptedPage(number: number, next: next(number))
    }
}

/// Drains `pages`, telling `log` of each page received.
private func drain(_ pages: PageLookahead<Int, ScriptedPage>, _ log: FetchLog) async throws -> [Int] {
    var seen: [Int] = []
    while let page = try await pages.next() {
        await log.receive()
        seen.append(page.number)
    }
    return seen
}

@Suite("PageLookahead: page loops one page ahead")
struct PageLookaheadTests {
    @Test("pages come in order, each once, with at most one page asked for beyond the next")
    func ordering() async throws {
        let log = FetchLog()
        let pages = PageLookahead(
            first: 0, fetch: source(log) { $0 < 5 ? $0 + 1 : nil }, following: { $0.next }, predict: { request, _ in request + 1 })
        #expect(try await drain(pages, log) == [0, 1, 2, 3, 4, 5])
        #expect(await log.mostInFlight == 2)
        // Received k pages, the consumer waits for page k; only page k + 1 may be asked for beyond it.
        #expect(await log.mostAhead <= 1)
        // The page predicted after the last one (6) was asked for and dropped.
        let requested = await log.requested
        #expect(Array(requested.prefix(6)) == [0, 1, 2, 3, 4, 5])
        #expect(requested.count <= 7 && Set(requested).count == requested.count)
    }

    @Test("a single page costs a single request")
    func singlePage() async throws {
        let log = FetchLog()
        let pages = PageLookahead(first: 0, fetch: source(log) { _ in nil }, following: { $0.next }, predict: { request, _ in request + 1 })
        #expect(try await drain(pages, log) == [0])
        #expect(await log.requested == [0])
    }

    @Test("without a prediction the loop is serial")
    func serial() async throws {
        let log = FetchLog()
        let pages = PageLookahead(
            first: 0, fetch: source(log, delay: .milliseconds(2)) { $0 < 4 ? $0 + 1 : nil }, following: { $0.next },
            predict: { _, _ in nil })
        #expect(try await drain(pages, log) == [0, 1, 2, 3, 4])
        #expect(await log.requested == [0, 1, 2, 3, 4])
        #expect(await log.mostInFlight == 1)
    }

    @Test("a prediction that says no page follows is not asked for")
    func predictedEnd() async throws {
        let log = FetchLog()
        let pages = PageLookahead(
            first: 0, fetch: source(log) { $0 < 3 ? $0 + 1 : nil }, following: { $0.next },
            predict: { request, _ in request < 3 ? request + 1 : nil })
        #expect(try await drain(pages, log) == [0, 1, 2, 3])
        #expect(await log.requested == [0, 1, 2, 3])
    }

    @Test("an error of a page surfaces after the pages before it, where a serial loop meets it")
    func errorInOrder() async throws {
        let log = FetchLog()
        let pages = PageLookahead(
            first: 0, fetch: source(log, failing: [3]) { $0 + 1 }, following: { $0.next }, predict: { request, _ in request + 1 })
        var seen: [Int] = []
        await #expect(throws: ScriptError(page: 3)) {
            while let page = try await pages.next() { seen.append(page.number) }
        }
        #expect(seen == [0, 1, 2])
        // Over after the error.
        #expect(try await pages.next() == nil)
    }

    @Test("an error of a prefetched page that the listing never reaches is never seen")
    func errorBeyondTheEnd() async throws {
        let log = FetchLog()
        let pages = PageLookahead(
            first: 0, fetch: source(log, delay: .milliseconds(1), failing: [4]) { $0 < 3 ? $0 + 1 : nil }, following: { $0.next },
            predict: { request, _ in request + 1 })
        #expect(try await drain(pages, log) == [0, 1, 2, 3])
    }

    @Test("a page that points elsewhere than predicted drops the prefetched page and fetches the one it points to")
    func mismatch() async throws {
        let log = FetchLog()
        // The server's count changed: page 1 points to page 3, not to the predicted page 2.
        let pages = PageLookahead(
            first: 0, fetch: source(log) { $0 == 1 ? 3 : ($0 < 5 ? $0 + 1 : nil) }, following: { $0.next },
            predict: { request, _ in request + 1 })
        #expect(try await drain(pages, log) == [0, 1, 3, 4, 5])
        #expect(await log.requested.contains(2))
    }

    @Test("cancelling the consumer cancels the page it waits for and the prefetched one")
    func cancellation() async throws {
        let log = FetchLog()
        let slow: @Sendable (Int) async throws -> ScriptedPage = { number in
            if number == 0 { return ScriptedPage(number: 0, next: 1) }
            return try await source(log, delay: .seconds(600)) { $0 + 1 }(number)
        }
        let consumer = Task {
            let pages = PageLookahead(first: 0, fetch: slow, following: { $0.next }, predict: { request, _ in request + 1 })
            var seen: [Int] = []
            while let page = try await pages.next() { seen.append(page.number) }
            return seen
        }
        // Wait until pages 1 (awaited) and 2 (prefetched) are in flight. The limits are generous
        // (the whole suite shares two cores: a cancellation once took 27 s to come through) but far
        // below the fetches' 600 s: a fetch that was not cancelled would pass them.
        let clock = ContinuousClock()
        var deadline = clock.now + .seconds(120)
        while await log.inFlight < 2, clock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await log.requested == [1, 2])
        let started = clock.now
        consumer.cancel()
        await #expect(throws: CancellationError.self) { _ = try await consumer.value }
        #expect(clock.now - started < .seconds(120))
        deadline = clock.now + .seconds(120)
        while await log.inFlight > 0, clock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await log.cancelled == [1, 2])
    }

    @Test("cancel() ends the loop and cancels the pages in flight")
    func explicitCancel() async throws {
        let log = FetchLog()
        let pages = PageLookahead(
            first: 0, fetch: source(log, delay: .milliseconds(200)) { $0 + 1 }, following: { $0.next },
            predict: { request, _ in request + 1 })
        #expect(try await pages.next()?.number == 0)
        pages.cancel()
        #expect(try await pages.next() == nil)
        // Page 1's fetch may begin only now: wait until it has begun and ended.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while clock.now < deadline {
            let requested = await log.requested.count
            let inFlight = await log.inFlight
            if requested >= 2, inFlight == 0 { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(await log.requested == [0, 1])
        #expect(await log.cancelled == [1])
    }
}

@Suite("Page loops of the contract use pageRequest(after:in:previous:)")
struct ContractLookaheadTests {
    @Test("listAll, children and forEachPage fetch one page ahead when the provider predicts, serially when not")
    func contractLoops() async throws {
        for predicts in [true, false] {
            let log = FetchLog()
            let provider = PredictingProvider(count: 6, predicts: predicts, log: log)
            let items = try await provider.listAll("/big", pageSize: 10)
            #expect(items.map(\.name) == (0..<60).map { "f\($0)" })
            #expect(await log.mostInFlight == (predicts ? 2 : 1))
            var streamed = 0
            for try await _ in provider.children(of: "/big", pageSize: 10) { streamed += 1 }
            #expect(streamed == 60)
            var pages: [Int] = []
            try await provider.forEachPage(of: "/big", request: PageRequest(limit: 10)) { page in pages.append(page.items.count) }
            #expect(pages == [10, 10, 10, 10, 10, 10])
        }
    }

    @Test("forEachPage still guards the pages: a provider that predicts a loop is stopped")
    func guarded() async throws {
        let log = FetchLog()
        // Every page points to page 1 again.
        struct Looping: StubProvider {
            let log: FetchLog
            var capabilities: Capabilities { Capabilities(features: [.paging]) }
            var account: ProviderAccount { ProviderAccount(kind: "looping", server: "memory") }
            func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
                await log.begin(0)
                await log.end(0, cancelled: false)
                return ItemPage(items: [Item(path: try folder.appending("same"), kind: .file)], next: PageCursor("1"))
            }
            func pageRequest(after request: PageRequest, in folder: ItemPath, previous: ItemPage) -> PageRequest? { request }
        }
        await #expect(throws: ProviderError.self) { _ = try await Looping(log: log).listAll("/big") }
        #expect(await log.requested.count <= 4)
    }
}

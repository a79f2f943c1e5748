import ProviderAPI

/// What a scripted page source saw: which pages were asked for, how many at once, which were
/// cancelled.
public actor FetchLog {
    public private(set) var requested: [Int] = []
    public private(set) var inFlight = 0
    public private(set) var mostInFlight = 0
    public private(set) var cancelled: Set<Int> = []
    /// The most pages asked for beyond the pages the consumer had received when each was asked for.
    public private(set) var mostAhead = 0
    private var received = 0

    public init() {}

    public func begin(_ page: Int) {
        requested.append(page)
        inFlight += 1
        mostInFlight = max(mostInFlight, inFlight)
        mostAhead = max(mostAhead, page - received)
    }

    public func end(_ page: Int, cancelled wasCancelled: Bool) {
        inFlight -= 1
        if wasCancelled { cancelled.insert(page) }
    }

    public func receive() { received += 1 }
}

/// A provider whose listing is `count` pages of 10 items, cursor = page number, that can tell
/// the next page (or not), and records how many `list` calls run at once.
public struct PredictingProvider: StubProvider {
    public let count: Int
    public let predicts: Bool
    public let log: FetchLog

    public init(count: Int, predicts: Bool, log: FetchLog) {
        self.count = count
        self.predicts = predicts
        self.log = log
    }

    public var capabilities: Capabilities { Capabilities(features: [.paging]) }
    public var account: ProviderAccount { ProviderAccount(kind: "predicting", server: "memory") }

    public func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        let number = page.cursor.flatMap { Int($0.rawValue) } ?? 0
        await log.begin(number)
        try? await Task.sleep(for: .milliseconds(10))
        await log.end(number, cancelled: Task.isCancelled)
        let items = try (0..<10).map { Item(path: try folder.appending("f\(number * 10 + $0)"), kind: .file) }
        return ItemPage(items: number < count ? items : [], next: number + 1 < count ? PageCursor(String(number + 1)) : nil)
    }

    public func pageRequest(after request: PageRequest, in folder: ItemPath, previous: ItemPage) -> PageRequest? {
        guard predicts, let number = request.cursor.flatMap({ Int($0.rawValue) }) else { return nil }
        var next = request
        next.cursor = PageCursor(String(number + 1))
        return next
    }
}

import Foundation
import ProviderAPI

/// Search, shares, quota and the change feed, minimally exercised where declared.
enum OptionalFeatureCases {
    static var all: [ConformanceCase] { [searchByName, searchFullText] + ShareCases.all + [quota, changes] }

    static let searchByName = ConformanceCase(
        "search.byName", requires: .search, summary: "Searching for a unique name finds exactly that file"
    ) { context in
        let unique = "needle\(RandomName.token())"
        let sub = try await context.makeFolder("hay").path
        let file = try await context.upload(text: "hay", as: "\(unique).txt", in: sub)
        try await context.upload(text: "hay", as: "other.txt", in: sub)
        var found: [Item] = []
        let settled = try await context.eventually {
            found = try await collect(.nameContains(unique), context: context)
            return !found.isEmpty
        }
        try context.expect(settled, "search(.nameContains(\(unique))) found nothing within \(context.options.settleTimeout)")
        try context.expect(found.map(\.path) == [file.path], "search(.nameContains) found \(found.map(\.path))")
    }

    static let searchFullText = ConformanceCase(
        "search.fullText", requires: [.search, .fullTextSearch], summary: "Full-text search finds a file by a unique word of its content"
    ) { context in
        let word = "zebra\(RandomName.token())"
        let file = try await context.upload(text: "The quick brown \(word) jumps.\n", as: "document.txt")
        var found: [Item] = []
        let settled = try await context.eventually {
            found = try await collect(.fullText(word), context: context)
            return found.contains { $0.path == file.path }
        }
        try context.expect(settled, "search(.fullText(\(word))) did not find \(file.path) within \(context.options.settleTimeout); found \(found.map(\.path))")
    }

    static let quota = ConformanceCase(
        "quota.report", requires: .quota, summary: "quota() reports bytes used or available, never negative"
    ) { context in
        let quota = try await context.provider.quota()
        try context.expect(quota.used != nil || quota.available != nil, "quota() reports neither used nor available bytes")
        for (label, value) in [("used", quota.used), ("available", quota.available), ("total", quota.total)] {
            if let value { try context.expect(value >= 0, "quota() reports \(value) bytes \(label)") }
        }
        context.note("used \(quota.used.map(String.init) ?? "?"), available \(quota.available.map(String.init) ?? "?")")
    }

    static let changes = ConformanceCase(
        "changes.afterUpload", requires: .changes, summary: "After changes(since: nil), a new upload appears in the change feed"
    ) { context in
        var token = try await context.provider.changes(since: nil).next
        let file = try await context.upload(text: "changed", as: "changed.txt")
        var seen: [Change] = []
        let settled = try await context.eventually {
            while true {
                let batch = try await context.provider.changes(since: token)
                try context.expect(!batch.resetRequired, "the change feed asks for a reset right after its first token")
                seen += batch.changes
                token = batch.next
                if !batch.hasMore { break }
            }
            return seen.contains { $0.path == file.path && $0.kind != .deleted }
        }
        try context.expect(settled, "the change feed did not report \(file.path) within \(context.options.settleTimeout); it reported \(seen.prefix(5).map { "\($0.kind) \($0.path)" })")
    }

    /// Every result of `query`, through every page.
    private static func collect(_ query: Query, context: ConformanceContext) async throws -> [Item] {
        var request = PageRequest(limit: 100)
        var items: [Item] = []
        for _ in 0..<100 {
            let page = try await context.provider.search(query, page: request)
            items += page.items
            guard let next = page.next else { return items }
            request.cursor = next
        }
        throw ConformanceFailure("search(\(query)) did not end after 100 pages")
    }
}

import Foundation
import ProviderAPI
import Testing
@testable import SharedCache

@Suite("CacheStore search")
struct CacheSearchTests {
    private func seeded() async throws -> (CacheDirectory, CacheStore) {
        let dir = try CacheDirectory()
        let store = try CacheStore(directory: dir.url)
        let day = Date(timeIntervalSinceReferenceDate: 86400 * 1000)
        try await store.saveItems(
            [
                Fixtures.folder("/Reports"),
                Fixtures.file("/Reports/Annual Report 2024.pdf", size: 5000, mime: "application/pdf", modified: day),
                Fixtures.file("/Reports/q1.xlsx", size: 100, mime: "application/vnd.ms-excel", modified: day.addingTimeInterval(10)),
                Fixtures.file("/Reports/Résumé.docx", size: 70, mime: "application/msword", modified: day.addingTimeInterval(20)),
                Fixtures.folder("/Photos"),
                Fixtures.file("/Photos/report-card.jpg", size: 900, mime: "image/jpeg", modified: day.addingTimeInterval(30)),
                Fixtures.file("/Photos/cat.png", size: 800, mime: "image/png"),
            ], account: Fixtures.alice)
        try await store.saveItem(Fixtures.file("/Reports/other report.txt"), account: Fixtures.bob)
        return (dir, store)
    }

    @Test("nameContains is case- and diacritic-insensitive, through the trigram index and below three characters")
    func nameContains() async throws {
        let (dir, store) = try await seeded()
        defer { dir.remove() }
        let names = { (query: Query) in try await store.search(query, account: Fixtures.alice).map(\.name) }
        #expect(try await names(.nameContains("REPORT")) == ["report-card.jpg", "Reports", "Annual Report 2024.pdf"])
        #expect(try await names(.nameContains("resume")) == ["Résumé.docx"])
        #expect(try await names(.fullText("ésu")) == ["Résumé.docx"])
        #expect(try await names(.nameContains("q1")) == ["q1.xlsx"])
        #expect(try await names(.nameContains("\"quoted\"")) == [])
        #expect(try await names(.nameContains("Photos/cat")) == [], "names only, not paths")
    }

    @Test("the other predicates, under a folder, per account, with a limit")
    func predicates() async throws {
        let (dir, store) = try await seeded()
        defer { dir.remove() }
        let day = Date(timeIntervalSinceReferenceDate: 86400 * 1000)
        let names = { (query: Query, folder: ItemPath) in try await store.search(query, under: folder, account: Fixtures.alice).map(\.name) }
        #expect(try await names(.kind(.folder), .root) == ["Photos", "Reports"])
        #expect(try await names(.mimeType("image/*"), .root) == ["cat.png", "report-card.jpg"])
        #expect(try await names(.size(min: 100, max: 900), .root) == ["cat.png", "report-card.jpg", "q1.xlsx"])
        #expect(try await names(.modified(after: day.addingTimeInterval(10), before: day.addingTimeInterval(30)), .root) == ["Résumé.docx", "q1.xlsx"])
        #expect(try await names(.and([.nameContains("report"), .kind(.file)]), "/Reports") == ["Annual Report 2024.pdf"])
        #expect(try await names(.or([.nameContains("cat"), .nameContains("q1")]), .root) == ["cat.png", "q1.xlsx"])
        #expect(try await names(.not(.kind(.file)), .root) == ["Photos", "Reports"])
        #expect(try await names(.under("/Photos"), .root) == ["cat.png", "report-card.jpg"])
        #expect(try await names(.native("anything"), .root) == [])
        #expect(try await store.search(.nameContains("report"), account: Fixtures.bob).map(\.name) == ["other report.txt"])
        #expect(try await store.search(.kind(.file), account: Fixtures.alice, limit: 2).count == 2)
    }

    @Test("100,000 items: bulk insert and FTS search times")
    func bulk() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let items = (0..<100_000).map { i in
            Item(path: ItemPath(stringLiteral: "/bulk/f\(i / 1000)/document-\(i).txt"), kind: .file, size: Int64(i), mimeType: "text/plain")
        }
        let start = ContinuousClock.now
        try await store.saveItems(items, account: Fixtures.alice)
        let insert = ContinuousClock.now - start
        let searchStart = ContinuousClock.now
        let hits = try await store.search(.nameContains("ment-4242"), account: Fixtures.alice)
        let search = ContinuousClock.now - searchStart
        let shortStart = ContinuousClock.now
        let limited = try await store.search(.nameContains("t-99"), account: Fixtures.alice, limit: 50)
        let short = ContinuousClock.now - shortStart
        print("MEASURE insert100k=\(insert) ftsSearch=\(search) hits=\(hits.count) shortSearchLimit50=\(short)")
        #expect(hits.map(\.name).sorted() == ["document-4242.txt", "document-42420.txt", "document-42421.txt", "document-42422.txt",
            "document-42423.txt", "document-42424.txt", "document-42425.txt", "document-42426.txt", "document-42427.txt",
            "document-42428.txt", "document-42429.txt"])
        #expect(limited.count == 50)
        #expect(try await store.stats().items == 100_000)
    }
}

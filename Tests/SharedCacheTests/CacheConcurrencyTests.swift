import Foundation
import ProviderAPI
import Testing
@testable import SharedCache

@Suite("CacheStore under concurrent writers", .serialized)
struct CacheConcurrencyTests {
    @Test("eight tasks and a second process write one cache: no lost write, no corruption, no BUSY")
    func eightTasksAndAProcess() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let cache = dir.url.appendingPathComponent("cache")
        let store = try CacheStore(directory: cache, blobLimits: BlobLimits(maxBytes: nil, maxCount: nil))
        let itemsChild = try TortureProcess(["write-items", cache.path, "child", "3000"], log: dir.url.appendingPathComponent("items.log"))
        let blobsChild = try TortureProcess(["write-blobs", cache.path, "40", "50000"], log: dir.url.appendingPathComponent("blobs.log"))
        let perTask = 600
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let folder = try ItemPath("/t\(task)")
                    for batch in stride(from: 0, to: perTask, by: 20) {
                        let items = try (batch..<batch + 20).map { Item(path: try folder.appending("i\($0)"), kind: .file, size: Int64($0)) }
                        try await store.saveListing(items, of: folder, account: Fixtures.alice, complete: false)
                        _ = try await store.listing(of: folder, account: Fixtures.alice)
                        _ = try await store.search(.nameContains("i1"), under: folder, account: Fixtures.alice, limit: 5)
                        if batch % 100 == 0 {
                            let bytes = Fixtures.bytes(10_000 + task * 100 + batch, seed: UInt8(task))
                            let source = try Fixtures.write(bytes, in: dir.url)
                            let key = try await store.blobs.save(file: source)
                            #expect(await store.blobs.open(key) != nil)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await itemsChild.wait() == 0)
        #expect(await blobsChild.wait() == 0)
        for task in 0..<8 {
            #expect(try await store.listing(of: ItemPath("/t\(task)"), account: Fixtures.alice)?.items.count == perTask)
        }
        let child = ProviderAccount(kind: "torture", server: "https://torture.example", user: "child")
        #expect(try await store.listing(of: "/p-child", account: child)?.items.count == 3000)
        let stats = try await store.stats()
        #expect(stats.items == 8 * perTask + 3000)
        #expect(stats.blobs == 8 * (perTask / 100) + 40)
        #expect(try await store.verify() == [])
        let reopened = try CacheStore(directory: cache, blobLimits: BlobLimits(maxBytes: nil, maxCount: nil))
        #expect(try await reopened.verify() == [])
        #expect(try await reopened.stats() == stats)
    }

    @Test("eviction cost with a few thousand blobs")
    func evictionCost() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url, blobLimits: BlobLimits(maxBytes: nil, maxCount: 3000))
        let source = dir.url.appendingPathComponent("src")
        let fillStart = ContinuousClock.now
        for index in 0..<3000 {
            try Data(Fixtures.bytes(256, seed: UInt8(index % 256)) + Array("\(index)".utf8)).write(to: source)
            try await store.blobs.save(file: source)
        }
        let fill = ContinuousClock.now - fillStart
        let evictStart = ContinuousClock.now
        for index in 3000..<3200 {
            try Data(Fixtures.bytes(256, seed: 7) + Array("\(index)".utf8)).write(to: source)
            try await store.blobs.save(file: source)
        }
        let evicting = (ContinuousClock.now - evictStart) / 200
        let bulkStart = ContinuousClock.now
        try await store.blobs.setLimits(BlobLimits(maxBytes: nil, maxCount: 1000))
        let bulk = ContinuousClock.now - bulkStart
        let reopenStart = ContinuousClock.now
        _ = try CacheStore(directory: dir.url, blobLimits: BlobLimits(maxBytes: nil, maxCount: 1000))
        let reopen = ContinuousClock.now - reopenStart
        print("MEASURE blobSave3000=\(fill) perSaveWithEviction@3000=\(evicting) evict2000=\(bulk) reopenReconcile1000=\(reopen)")
        #expect(await store.blobs.count == 1000)
        #expect(try await store.verify() == [])
    }
}

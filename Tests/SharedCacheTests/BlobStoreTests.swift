import Foundation
import GRDB
import NIOCore
import ProviderAPI
import Testing
@testable import SharedCache
import ProviderKit

@Suite("BlobStore")
struct BlobStoreTests {
    @Test("save computes SHA-256, open returns the bytes, remove and reset empty the store")
    func saveOpenRemove() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let bytes = Fixtures.bytes(100_000, seed: 1)
        let key = try await store.blobs.save(file: try Fixtures.write(bytes, in: dir.url))
        #expect(key == Digester.hex(.sha256, of: bytes))
        #expect(await store.blobs.has(key))
        #expect(await store.blobs.has(key.uppercased()))
        let url = try #require(await store.blobs.open(key))
        #expect(try Data(contentsOf: url) == Data(bytes))
        #expect(await store.blobs.count == 1)
        #expect(await store.blobs.totalBytes == 100_000)
        #expect(try await store.stats().blobBytes == 100_000)
        try await store.blobs.remove(key)
        #expect(await !store.blobs.has(key))
        #expect(await store.blobs.open(key) == nil)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        try await store.blobs.save(file: try Fixtures.write([1, 2, 3], in: dir.url))
        try await store.blobs.reset()
        #expect(await store.blobs.count == 0)
        #expect(await !store.blobs.has("not a digest"))
    }

    @Test("a given digest is verified; a mismatch is an integrity error and leaves nothing")
    func verifiesDigest() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let bytes = Fixtures.bytes(5000, seed: 2)
        let md5 = try #require(Digester.hex(.md5, of: bytes))
        let source = try Fixtures.write(bytes, in: dir.url)
        #expect(try await store.blobs.save(file: source, digest: md5.uppercased(), algorithm: .md5) == md5)
        #expect(await store.blobs.has(md5))
        let wrong = String(repeating: "0", count: 64)
        await #expect {
            try await store.blobs.save(file: source, digest: wrong)
        } throws: { ($0 as? ProviderError)?.code == .integrity }
        #expect(await !store.blobs.has(wrong))
        #expect(await store.blobs.count == 1)
        #expect(try tempFiles(dir.url).isEmpty)
    }

    @Test("the sink streams a download in, verifies it and sets its key")
    func sink() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let bytes = Fixtures.bytes(300_000, seed: 3)
        let sha = try #require(Digester.hex(.sha256, of: bytes))
        let sink = store.blobs.sink(expectedDigest: sha)
        #expect(try await sink.resumePoint() == nil)
        try await sink.begin(offset: 0, expectedLength: Int64(bytes.count), validator: nil)
        for start in stride(from: 0, to: bytes.count, by: 65536) {
            try await sink.write(ByteBuffer(bytes: bytes[start..<min(start + 65536, bytes.count)]))
        }
        #expect(sink.key == nil)
        try await sink.finish()
        #expect(sink.key == sha)
        #expect(try Data(contentsOf: try #require(await store.blobs.open(sha))) == Data(bytes))

        let bad = store.blobs.sink(expectedDigest: String(repeating: "a", count: 64))
        try await bad.begin(offset: 0, expectedLength: nil, validator: nil)
        try await bad.write(ByteBuffer(bytes: [1, 2, 3]))
        await #expect(throws: ProviderError.self) { try await bad.finish() }
        #expect(bad.key == nil)

        let failed = store.blobs.sink()
        try await failed.begin(offset: 0, expectedLength: nil, validator: nil)
        try await failed.write(ByteBuffer(bytes: [9, 9]))
        await failed.fail()
        #expect(await store.blobs.count == 1)
        #expect(try tempFiles(dir.url).isEmpty)
    }

    @Test("LRU: the count limit evicts the least recently used, never the blob just saved")
    func countLimit() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url, blobLimits: BlobLimits(maxCount: 3))
        #expect(store.blobs.limits == BlobLimits(maxBytes: nil, maxCount: 3))
        var keys: [String] = []
        for seed in 0..<3 { keys.append(try await store.blobs.save(file: try Fixtures.write(Fixtures.bytes(100, seed: UInt8(seed)), in: dir.url))) }
        _ = await store.blobs.open(keys[0])  // 0 is now the most recent; 1 is the oldest
        let fourth = try await store.blobs.save(file: try Fixtures.write(Fixtures.bytes(100, seed: 9), in: dir.url))
        #expect(await store.blobs.count == 3)
        #expect(await !store.blobs.has(keys[1]))
        #expect(await store.blobs.has(keys[0]))
        #expect(await store.blobs.has(keys[2]))
        #expect(await store.blobs.has(fourth))
        try await store.blobs.setLimits(BlobLimits(maxCount: 1))
        #expect(await store.blobs.count == 1)
        #expect(await store.blobs.has(fourth))
    }

    @Test("the kept totals follow every change: a second save of the same content, eviction, removal, reset")
    func totalsStayExact() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url, blobLimits: BlobLimits(maxBytes: nil, maxCount: 4))
        var keys: [String] = []
        for seed in 0..<6 { keys.append(try await store.blobs.save(file: try Fixtures.write(Fixtures.bytes(100 + seed, seed: UInt8(seed)), in: dir.url))) }
        #expect(await store.blobs.count == 4)
        #expect(await store.blobs.totalBytes == 102 + 103 + 104 + 105)
        // the same content again replaces its row; it must not count twice
        try await store.blobs.save(file: try Fixtures.write(Fixtures.bytes(105, seed: 5), in: dir.url))
        #expect(await store.blobs.count == 4)
        #expect(await store.blobs.totalBytes == 414)
        try await store.blobs.remove(keys[5])
        #expect(await store.blobs.count == 3)
        #expect(await store.blobs.totalBytes == 309)
        #expect(try await store.verify() == [])
        try await store.blobs.reset()
        #expect(await store.blobs.count == 0)
        #expect(await store.blobs.totalBytes == 0)
        #expect(try await store.verify() == [])
    }

    @Test("a cache made before the kept totals starts them from its blobs")
    func totalsMigrateFromV1() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let pool = try DatabasePool(path: dir.url.appendingPathComponent("cache.sqlite").path)
        try CacheSchema.migrator.migrate(pool, upTo: "v1")
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO blob (digest, size, lastUsed, path) VALUES ('aa', 10, 1, 'aa/aa'), ('bb', 32, 2, 'bb/bb')")
        }
        try pool.close()
        let migrated = try DatabasePool(path: dir.url.appendingPathComponent("cache.sqlite").path)
        try CacheSchema.migrator.migrate(migrated)
        let totals = try migrated.read { db in try Row.fetchOne(db, sql: "SELECT count, bytes FROM blob_totals") }
        #expect(totals?["count"] == 2)
        #expect(totals?["bytes"] == 42)
    }

    @Test("LRU: the byte limit evicts until the total fits; a blob over the limit alone stays")
    func byteLimit() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url, blobLimits: BlobLimits(maxBytes: 1000, maxCount: nil))
        let a = try await store.blobs.save(file: try Fixtures.write(Fixtures.bytes(400, seed: 1), in: dir.url))
        let b = try await store.blobs.save(file: try Fixtures.write(Fixtures.bytes(400, seed: 2), in: dir.url))
        #expect(await store.blobs.totalBytes == 800)
        let c = try await store.blobs.save(file: try Fixtures.write(Fixtures.bytes(300, seed: 3), in: dir.url))
        #expect(await !store.blobs.has(a))
        #expect(await store.blobs.has(b))
        #expect(await store.blobs.has(c))
        #expect(await store.blobs.totalBytes == 700)
        let huge = try await store.blobs.save(file: try Fixtures.write(Fixtures.bytes(5000, seed: 4), in: dir.url))
        #expect(await store.blobs.has(huge))
        #expect(await store.blobs.count == 1)
        #expect(await store.blobs.totalBytes == 5000)
        // the default: unlimited bytes, 100 blobs
        #expect(BlobLimits() == BlobLimits(maxBytes: nil, maxCount: 100))
    }

    @Test("reopening removes rows without files, files without rows and dead writers' temporary files")
    func reconcileOnOpen() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        var keys: [String] = []
        do {
            let store = try CacheStore(directory: dir.url)
            for seed in 0..<3 { keys.append(try await store.blobs.save(file: try Fixtures.write(Fixtures.bytes(64, seed: UInt8(seed)), in: dir.url))) }
        }
        let blobs = dir.url.appendingPathComponent("blobs")
        // a row whose file vanished
        try FileManager.default.removeItem(at: blobs.appendingPathComponent(BlobStore.relativePath(of: keys[0])))
        // a file without a row
        let orphanKey = String(repeating: "ab", count: 32)
        try FileManager.default.createDirectory(at: blobs.appendingPathComponent("ab"), withIntermediateDirectories: true)
        try Data([1]).write(to: blobs.appendingPathComponent(BlobStore.relativePath(of: orphanKey)))
        // a torn write of a dead store (no lock held), and a truncated blob
        let deadArea = blobs.appendingPathComponent("tmp/dead", isDirectory: true)
        try FileManager.default.createDirectory(at: deadArea, withIntermediateDirectories: true)
        try Data([1, 2]).write(to: deadArea.appendingPathComponent("x.tmp"))
        try Data().write(to: blobs.appendingPathComponent("tmp/dead.lock"))
        try Data([0]).write(to: blobs.appendingPathComponent(BlobStore.relativePath(of: keys[1])))

        let store = try CacheStore(directory: dir.url)
        #expect(await store.blobs.count == 1)
        #expect(await store.blobs.has(keys[2]))
        #expect(await !store.blobs.has(keys[0]))
        #expect(await !store.blobs.has(keys[1]))
        #expect(!FileManager.default.fileExists(atPath: blobs.appendingPathComponent(BlobStore.relativePath(of: orphanKey)).path))
        #expect(!FileManager.default.fileExists(atPath: deadArea.path))
        #expect(try tempFiles(dir.url).isEmpty)
    }

    @Test("a second store on the same directory never deletes a live store's temporary files")
    func liveTempAreaSurvives() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let first = try CacheStore(directory: dir.url)
        let sink = first.blobs.sink()
        try await sink.begin(offset: 0, expectedLength: nil, validator: nil)
        try await sink.write(ByteBuffer(bytes: [1, 2, 3]))
        let second = try CacheStore(directory: dir.url)
        try await sink.finish()
        let key = try #require(sink.key)
        #expect(await second.blobs.has(key))
    }

    private func tempFiles(_ cache: URL) throws -> [String] {
        let tmp = cache.appendingPathComponent("blobs/tmp")
        let enumerator = FileManager.default.enumerator(atPath: tmp.path)
        var files: [String] = []
        while let name = enumerator?.nextObject() as? String {
            if name.hasSuffix(".tmp") { files.append(name) }
        }
        return files
    }
}

import Foundation
import GRDB
import ProviderAPI
import Testing
@testable import SharedCache

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The permission bits of what is at `path`, not following a symlink; nil when nothing is there.
private func mode(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o777
}

@Suite("Cache permissions")
struct CachePermissionTests {
    @Test("a new cache folder is 0700; the database, its -wal and -shm, and the blobs are 0600")
    func newCache() async throws {
        let parent = try CacheDirectory()
        defer { parent.remove() }
        let folder = parent.url.appendingPathComponent("nested/strata", isDirectory: true)
        let store = try CacheStore(directory: folder)
        // Writing makes SQLite create the -wal and -shm files.
        try await store.write { db in try db.execute(sql: "DELETE FROM item") }
        let key = try await store.blobs.save(file: try Fixtures.write(Fixtures.bytes(5000, seed: 3), in: parent.url))
        let blob = try #require(await store.blobs.open(key))

        #expect(mode(folder.path) == 0o700)
        #expect(mode(store.blobs.directory.path) == 0o700)
        #expect(mode(blob.deletingLastPathComponent().path) == 0o700)
        let database = folder.appendingPathComponent("cache.sqlite").path
        for path in [database, database + "-wal", database + "-shm", blob.path] {
            #expect(mode(path) == 0o600, "\(path) is \(String(mode(path) ?? 0, radix: 8))")
        }
        let blobsFolder = store.blobs.directory.appendingPathComponent("tmp").path
        #expect(mode(blobsFolder) == 0o700)
        for name in try FileManager.default.contentsOfDirectory(atPath: blobsFolder) {
            let path = blobsFolder + "/" + name
            #expect(mode(path) == (name.hasSuffix(".lock") ? 0o600 : 0o700), "\(name)")
        }
    }

    @Test("an existing database readable by others is made 0600 when the cache opens")
    func existingDatabase() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        do {
            let store = try CacheStore(directory: dir.url)
            try await store.write { db in try db.execute(sql: "DELETE FROM item") }
        }
        let database = dir.url.appendingPathComponent("cache.sqlite").path
        #expect(chmod(database, 0o644) == 0)
        let store = try CacheStore(directory: dir.url)
        try await store.write { db in try db.execute(sql: "DELETE FROM item") }
        #expect(mode(database) == 0o600)
        for side in ["-wal", "-shm"] where mode(database + side) != nil {
            #expect(mode(database + side) == 0o600, "\(side)")
        }
    }
}

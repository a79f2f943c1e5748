import Foundation
import GRDB
import ProviderAPI
import Testing
@testable import SharedCache

/// The cache's own failures are local storage failing, never a server's: a transfer or a replay
/// that met one must not send the call again as if the network had failed.
@Suite("Cache errors")
struct CacheErrorMappingTests {
    @Test("a SQLite error of the cache is io, not server")
    func sqliteIsIO() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let error = await #expect(throws: ProviderError.self) {
            try await store.read { db in try Row.fetchAll(db, sql: "SELECT * FROM no_such_table").count }
        }
        #expect(error?.code == .io)
        #expect(error?.message?.hasPrefix("cache database:") == true)
    }

    @Test("a full disk is quotaExceeded; an error the cache does not know is unknown")
    func otherMappings() {
        #expect(CacheStore.wrap(DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full")).code == .quotaExceeded)
        #expect(CacheStore.wrap(DatabaseError(resultCode: .SQLITE_IOERR, message: "disk I/O error")).code == .io)
        #expect(CacheStore.wrap(DatabaseError(resultCode: .SQLITE_CORRUPT, message: "malformed")).code == .io)
        struct LocalBug: Error {}
        let unknown = CacheStore.wrap(LocalBug())
        #expect(unknown.code == .unknown)
        #expect(unknown.message?.hasPrefix("cache: ") == true)
        #expect(CacheStore.wrap(POSIXError(.ENOSPC)).code == .quotaExceeded)
    }
}

import Foundation
import ProviderAPI
import SharedCache
import TransferEngine
import Testing

@Suite("folder etags kept for a transfer job (migration v7-job-folder-etags)")
struct FolderVersionStoreTests {
    private static let key = TransferJobKey(
        mode: "sync", sourceAccount: Fixtures.alice, sourcePath: "/from", destinationAccount: Fixtures.nuxeo, destinationPath: "/to")

    @Test("kept per job and settings, replaced whole, survive reopening, and forgotten by cache clear")
    func keptReplacedCleared() async throws {
        let directory = try CacheDirectory()
        defer { directory.remove() }
        let jobs = SQLiteTransferJobStore(cache: try CacheStore(directory: directory.url))
        let root = FolderVersion(relativePath: .root, sourceETag: "\"s1\"", destinationETag: "W/\"d1\"", files: 3)
        let deep = FolderVersion(relativePath: "/a/b", sourceETag: "s2", destinationETag: "d2", files: 1)
        try await jobs.replaceFolderVersions(of: Self.key, settings: "rule=size", with: [root, deep])

        #expect(try await jobs.folderVersions(of: Self.key, settings: "rule=size") == [.root: root, "/a/b": deep])
        #expect(try await jobs.folderVersions(of: Self.key, settings: "rule=digest").isEmpty)
        var other = Self.key
        other.mode = "check"
        #expect(try await jobs.folderVersions(of: other, settings: "rule=size").isEmpty)

        try await jobs.replaceFolderVersions(of: Self.key, settings: "rule=size", with: [deep])
        let reopened = SQLiteTransferJobStore(cache: try CacheStore(directory: directory.url))
        #expect(try await reopened.folderVersions(of: Self.key, settings: "rule=size") == ["/a/b": deep])

        try await CacheStore(directory: directory.url).clear(account: Fixtures.nuxeo)
        #expect(try await reopened.folderVersions(of: Self.key, settings: "rule=size").isEmpty)
    }

    @Test("a record matches only both etags, weakly compared; a missing etag never matches")
    func matching() {
        let version = FolderVersion(relativePath: .root, sourceETag: "\"s\"", destinationETag: "W/\"d\"", files: 0)
        #expect(version.matches(sourceETag: "W/\"s\"", destinationETag: "\"d\""))
        #expect(!version.matches(sourceETag: "\"s\"", destinationETag: "\"other\""))
        #expect(!version.matches(sourceETag: "\"other\"", destinationETag: "\"d\""))
        #expect(!version.matches(sourceETag: nil, destinationETag: "\"d\""))
        #expect(!version.matches(sourceETag: "\"s\"", destinationETag: nil))
    }
}

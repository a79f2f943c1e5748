import Foundation
import ProviderAPI
import SharedCache
import TransferEngine
import Testing

@Suite("transfer jobs and computed digests in the cache database")
struct TransferJobStoreTests {
    private static let key = TransferJobKey(
        mode: "sync", sourceAccount: Fixtures.alice, sourcePath: "/from", destinationAccount: Fixtures.nuxeo, destinationPath: "/to")
    private static let modified = Date(timeIntervalSince1970: 1_700_000_000.123456)

    private static func done(_ path: ItemPath, size: Int64 = 3) -> TransferJobAction {
        TransferJobAction(
            relativePath: path, kind: "copyFile", state: .done,
            finished: FinishedFile(
                relativePath: path, source: FileFingerprint(size: size, modified: modified, etag: "\"e\""),
                destination: FileFingerprint(size: size, etag: "d")))
    }

    @Test("TransferManager.Options.keepJobs(in:) keeps the jobs in that cache's database (the public way to resume jobs)")
    func optionsKeepJobsInTheCache() async throws {
        let directory = try CacheDirectory()
        defer { directory.remove() }
        let cache = try CacheStore(directory: directory.url)
        var options = TransferManager.Options()
        #expect(options.jobStore == nil)
        options.keepJobs(in: cache)
        let store = try #require(options.jobStore)
        let job = try await store.begin(Self.key, fresh: false)
        try await store.record(job.id, [Self.done("/a.txt")])
        // Another store over the same cache sees the job the options' store began: it is in the database.
        let unfinished = try await SQLiteTransferJobStore(cache: cache).unfinished(Self.key)
        #expect(unfinished == [Self.done("/a.txt").finished].compactMap { $0 })
    }

    @Test("an unfinished job is resumed with its finished files; a complete one, or fresh, starts a new job")
    func resumeAndReplace() async throws {
        let directory = try CacheDirectory()
        defer { directory.remove() }
        let jobs = SQLiteTransferJobStore(cache: try CacheStore(directory: directory.url))

        let first = try await jobs.begin(Self.key)
        #expect(!first.resumed)
        #expect(first.finished.isEmpty)
        try await jobs.recordPlan(
            first.id,
            actions: [
                .init(relativePath: "/a.txt", kind: "copyFile"), .init(relativePath: "/b.txt", kind: "copyFile"),
                .init(relativePath: "/sub", kind: "createFolder"),
            ])
        try await jobs.record(first.id, [Self.done("/a.txt"), .init(relativePath: "/sub", kind: "createFolder", state: .done)])
        #expect(try await jobs.isComplete(Self.key) == false)

        // Another key (another mode) is another job.
        var copyKey = Self.key
        copyKey.mode = "copy"
        #expect(try await jobs.unfinished(copyKey) == nil)

        let again = try await jobs.begin(Self.key)
        #expect(again.resumed)
        #expect(again.id == first.id)
        #expect(again.finished == [Self.done("/a.txt").finished].compactMap { $0 })
        #expect(try await jobs.unfinished(Self.key)?.count == 1)
        // Planning again leaves a finished file finished.
        try await jobs.recordPlan(again.id, actions: [.init(relativePath: "/a.txt", kind: "copyFile"), .init(relativePath: "/b.txt", kind: "copyFile")])
        let states = Dictionary(uniqueKeysWithValues: try await jobs.actions(of: again.id).map { ("\($0.kind) \($0.relativePath)", $0.state) })
        #expect(states == ["copyFile /a.txt": .done, "copyFile /b.txt": .planned, "createFolder /sub": .done])

        try await jobs.complete(again.id)
        #expect(try await jobs.isComplete(Self.key) == true)
        #expect(try await jobs.unfinished(Self.key) == nil)
        let next = try await jobs.begin(Self.key)
        #expect(!next.resumed)
        #expect(next.finished.isEmpty)
        #expect(try await jobs.actions(of: next.id).isEmpty)

        try await jobs.record(next.id, [Self.done("/b.txt")])
        let fresh = try await jobs.begin(Self.key, fresh: true)
        #expect(!fresh.resumed)
        #expect(fresh.finished.isEmpty)
    }

    @Test("a job survives closing the store and opening it again (another process)")
    func persists() async throws {
        let directory = try CacheDirectory()
        defer { directory.remove() }
        do {
            let jobs = SQLiteTransferJobStore(cache: try CacheStore(directory: directory.url))
            let job = try await jobs.begin(Self.key)
            try await jobs.record(job.id, [Self.done("/naïve.txt"), Self.done("/nai\u{0308}ve.txt", size: 4)])
        }
        let jobs = SQLiteTransferJobStore(cache: try CacheStore(directory: directory.url))
        let job = try await jobs.begin(Self.key)
        #expect(job.resumed)
        // Two spellings of one name are two files.
        #expect(Set(job.finished.map(\.source.size)) == [3, 4])
    }

    @Test("a computed digest is found for the same version of the file only")
    func digests() async throws {
        let directory = try CacheDirectory()
        defer { directory.remove() }
        let jobs = SQLiteTransferJobStore(cache: try CacheStore(directory: directory.url))
        let version = FileFingerprint(size: 10, modified: Self.modified, etag: nil)
        try await jobs.remember(
            digests: [ComputedDigest(path: "/x.bin", algorithm: .sha256, digest: "abc", version: version)], account: Fixtures.alice)
        #expect(try await jobs.digest(of: "/x.bin", account: Fixtures.alice, algorithm: .sha256, version: version) == "abc")
        #expect(try await jobs.digest(of: "/x.bin", account: Fixtures.bob, algorithm: .sha256, version: version) == nil)
        #expect(try await jobs.digest(of: "/x.bin", account: Fixtures.alice, algorithm: .md5, version: version) == nil)
        var changed = version
        changed.modified = Self.modified.addingTimeInterval(1)
        #expect(try await jobs.digest(of: "/x.bin", account: Fixtures.alice, algorithm: .sha256, version: changed) == nil)
        changed = version
        changed.size = 11
        #expect(try await jobs.digest(of: "/x.bin", account: Fixtures.alice, algorithm: .sha256, version: changed) == nil)
        changed = version
        changed.etag = "\"new\""
        #expect(try await jobs.digest(of: "/x.bin", account: Fixtures.alice, algorithm: .sha256, version: changed) == nil)
    }

    @Test("fingerprints: the same version needs the same size and time, and equal etags and digests where both have them")
    func fingerprints() {
        let base = FileFingerprint(size: 5, modified: Self.modified, etag: "a", digest: "AB")
        #expect(base.sameVersion(as: FileFingerprint(size: 5, modified: Self.modified, etag: "a", digest: "ab")))
        #expect(base.sameVersion(as: FileFingerprint(size: 5, modified: Self.modified)))
        #expect(!base.sameVersion(as: FileFingerprint(size: 6, modified: Self.modified)))
        #expect(!base.sameVersion(as: FileFingerprint(size: 5, modified: nil)))
        #expect(!base.sameVersion(as: FileFingerprint(size: 5, modified: Self.modified, etag: "b")))
        #expect(!base.sameVersion(as: FileFingerprint(size: 5, modified: Self.modified, digest: "cd")))
        #expect(!FileFingerprint().sameVersion(as: FileFingerprint()))
    }
}

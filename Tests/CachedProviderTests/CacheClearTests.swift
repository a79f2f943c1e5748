import Foundation
import ProviderAPI
import ProviderConformance
import ProviderTesting
import SharedCache
import TransferEngine
import Testing

@Suite("CacheStore.clear: resumability forgotten, the sync journal kept")
struct CacheClearTests {
    private let alice = ProviderAccount(kind: "clear", server: "https://clear.example", user: "alice")
    private let bob = ProviderAccount(kind: "clear", server: "https://clear.example", user: "bob")

    /// A job from `account` to `other`, a digest and an upload checkpoint of `account`.
    private func seedResumability(_ store: CacheStore, _ account: ProviderAccount, to other: ProviderAccount) async throws -> TransferJobKey {
        let jobs = SQLiteTransferJobStore(cache: store)
        let key = TransferJobKey(mode: "copy", sourceAccount: account, sourcePath: "/src", destinationAccount: other, destinationPath: "/dst")
        let job = try await jobs.begin(key)
        try await jobs.recordPlan(job.id, actions: [.init(relativePath: "/a.txt", kind: "copyFile")])
        let version = FileFingerprint(size: 4, etag: "\"e1\"")
        try await jobs.remember(digests: [ComputedDigest(path: "/src/a.txt", algorithm: .sha1, digest: "abc", version: version)], account: account)
        try await store.save(UploadCheckpoint(account: account.description, destination: "/big.bin", resumeKey: "k", format: "f", state: Data([1])))
        return key
    }

    @Test("a whole clear forgets transfer jobs, computed digests and upload checkpoints, keeps every journal entry and its bytes")
    func wholeClear() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clear-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try CacheStore(directory: directory)
        let key = try await seedResumability(store, alice, to: bob)
        let cached = CachedProvider(wrapping: InMemoryProvider(transport: InMemoryServer()), store: store, policy: .cacheOnly, offlineWrites: .always)
        _ = try await cached.upload(DataSource(string: "mine\n"), to: .root, name: "mine.txt", options: UploadOptions())
        let entry = try #require(try await cached.journal.entries().first)

        let kept = try await store.clear()
        #expect(kept == 1)
        #expect(try await SQLiteTransferJobStore(cache: store).unfinished(key) == nil)
        #expect(try await SQLiteTransferJobStore(cache: store).digest(of: "/src/a.txt", account: alice, algorithm: .sha1, version: FileFingerprint(size: 4, etag: "\"e1\"")) == nil)
        #expect(try await store.uploadCheckpoints().isEmpty)
        #expect(try await cached.journal.entries().map(\.id) == [entry.id])
        let file = try #require(try await cached.journal.contentFile(of: entry.id))
        #expect(try String(contentsOf: file, encoding: .utf8) == "mine\n")
        let shown = try await cached.item(at: "/mine.txt")
        #expect(shown.properties[CacheMarks.pending] == "true" && shown.size == 5, "the pending upload is still shown")
    }

    @Test("an account's clear forgets its own jobs (either end), digests and checkpoints only, and keeps its journal")
    func accountClear() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clear-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try CacheStore(directory: directory)
        let carol = ProviderAccount(kind: "clear", server: "https://clear.example", user: "carol")
        let alicesJob = try await seedResumability(store, alice, to: bob)
        let bobsJob = try await seedResumability(store, bob, to: carol)
        let provider = InMemoryProvider(transport: InMemoryServer())
        let cached = CachedProvider(wrapping: provider, store: store, policy: .cacheOnly, offlineWrites: .always)
        _ = try await cached.createFolder(named: "made", in: .root)

        let kept = try await store.clear(account: bob)
        #expect(kept == 0, "bob has no journal entry")
        #expect(try await SQLiteTransferJobStore(cache: store).unfinished(alicesJob) == nil, "alice's job went to bob")
        #expect(try await SQLiteTransferJobStore(cache: store).unfinished(bobsJob) == nil)
        let version = FileFingerprint(size: 4, etag: "\"e1\"")
        #expect(try await SQLiteTransferJobStore(cache: store).digest(of: "/src/a.txt", account: alice, algorithm: .sha1, version: version) == "abc")
        #expect(try await SQLiteTransferJobStore(cache: store).digest(of: "/src/a.txt", account: bob, algorithm: .sha1, version: version) == nil)
        #expect(try await store.uploadCheckpoints().map(\.account) == [alice.description])

        #expect(try await store.clear(account: provider.account) == 1)
        #expect(try await cached.journal.count() == 1)
    }
}

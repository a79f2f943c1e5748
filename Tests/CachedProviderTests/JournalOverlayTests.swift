import Foundation
import HTTPProviderKit
import ProviderAPI
import ProviderConformance
import ProviderTesting
import SharedCache
import Testing

/// The reference server, a provider whose network can be cut, one that always reaches the server, and a cache.
private struct OverlayRig {
    let server = InMemoryServer()
    let recording: RecordingTransport
    let faults: FaultInjectingTransport
    let base: InMemoryProvider
    let direct: InMemoryProvider
    let store: CacheStore
    let directory: URL

    init() throws {
        recording = RecordingTransport(passingTo: server)
        faults = FaultInjectingTransport(recording)
        base = InMemoryProvider(transport: faults, capabilities: InMemoryProvider.fullCapabilities, retry: .none)
        direct = InMemoryProvider(transport: server, capabilities: InMemoryProvider.fullCapabilities)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("overlay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try CacheStore(directory: directory)
    }

    /// A provider reaching the server (through a transport without faults), journaling when it cannot.
    func online() -> CachedProvider {
        CachedProvider(wrapping: InMemoryProvider(transport: recording, capabilities: InMemoryProvider.fullCapabilities), store: store, offlineWrites: .whenUnreachable)
    }

    /// A provider whose every request fails as a lost connection.
    func unreachable() -> CachedProvider {
        faults.inject(count: Int.max) { _ in .connectionFailure }
        return CachedProvider(wrapping: base, store: store, offlineWrites: .whenUnreachable)
    }

    func seed() async throws {
        _ = try await direct.createFolder(named: "docs", in: .root)
        for name in ["a.txt", "b.txt"] {
            _ = try await direct.upload(DataSource(string: "server \(name)\n"), to: "/docs", name: name, options: UploadOptions())
        }
        _ = try await direct.createFolder(named: "old", in: "/docs")
        _ = try await direct.upload(DataSource(string: "inside\n"), to: "/docs/old", name: "in.txt", options: UploadOptions())
        _ = try await online().listAll("/docs")
        _ = try await online().listAll("/docs/old")
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

private func pending(_ items: [Item]) -> [String] {
    items.filter { $0.properties[CacheMarks.pending] == "true" }.map(\.name).sorted()
}

@Suite("CachedProvider: waiting journal entries laid over every answer until replayed")
struct JournalOverlayTests {
    @Test("offline writes, server back: an online listing before the replay still shows them pending; after the replay the server's items, unmarked")
    func onlineListingBeforeReplay() async throws {
        let rig = try OverlayRig()
        defer { rig.remove() }
        try await rig.seed()
        let offline = rig.unreachable()
        _ = try await offline.upload(DataSource(string: "written offline\n"), to: "/docs", name: "new.txt", options: UploadOptions())
        _ = try await offline.upload(DataSource(string: "mine\n"), to: "/docs", name: "a.txt", options: UploadOptions())
        _ = try await offline.createFolder(named: "made", in: "/docs")
        try await offline.delete("/docs/b.txt")
        _ = try await offline.move("/docs/old", to: "/docs/moved", options: TransferOptions())
        #expect(try await offline.journal.count() == 5)

        let online = rig.online()
        let listed = try await online.listAll("/docs")
        #expect(listed.map(\.name).sorted() == ["a.txt", "made", "moved", "new.txt"])
        #expect(pending(listed) == ["a.txt", "made", "moved", "new.txt"])
        let a = try #require(listed.first { $0.name == "a.txt" })
        #expect(a.size == 5 && a.properties[CacheMarks.journalEntry] != nil)
        #expect(try await online.item(at: "/docs/new.txt").properties[CacheMarks.pending] == "true")
        await #expect(throws: ProviderError.self) { _ = try await online.item(at: "/docs/b.txt") }
        await #expect(throws: ProviderError.self) { _ = try await online.item(at: "/docs/old") }
        #expect(try await online.listAll("/docs/moved").map(\.name) == ["in.txt"])
        #expect(try await online.listAll("/docs/made").isEmpty)
        let sink = MemorySink()
        _ = try await online.download("/docs/a.txt", to: sink, options: DownloadOptions())
        #expect(String(decoding: await sink.bytes, as: UTF8.self) == "mine\n", "a pending upload's content is its kept bytes")

        // The online listing left the cached view as the journal made it: offline again, it still answers, and writes fold.
        let again = rig.unreachable()
        #expect(try await again.listAll("/docs").map(\.name).sorted() == ["a.txt", "made", "moved", "new.txt"])
        _ = try await again.move("/docs/new.txt", to: "/docs/renamed.txt", options: TransferOptions())
        #expect(try await again.journal.count() == 5, "the rename folds into the pending upload")

        let report = try await online.replayJournal()
        #expect(report.replayed.count == 5 && report.remaining == 0, "\(report)")
        let after = try await online.listAll("/docs")
        #expect(after.map(\.name).sorted() == ["a.txt", "made", "moved", "renamed.txt"])
        #expect(pending(after).isEmpty, "\(after.map(\.properties))")
        #expect(try await online.item(at: "/docs/a.txt").size == 5)
        #expect(try await online.item(at: "/docs/renamed.txt").properties[CacheMarks.pending] == nil)
        #expect(try await rig.direct.listAll("/docs").map(\.name).sorted() == ["a.txt", "made", "moved", "renamed.txt"])
    }

    @Test("a folder made or moved by a waiting entry is answered from the cached view without asking the server")
    func journalFoldersStayLocal() async throws {
        let rig = try OverlayRig()
        defer { rig.remove() }
        try await rig.seed()
        let offline = rig.unreachable()
        let made = try await offline.createFolder(named: "made", in: "/docs")
        _ = try await offline.upload(DataSource(string: "x\n"), to: made.path, name: "x.txt", options: UploadOptions())
        let online = rig.online()
        let before = rig.recording.requests.count
        #expect(try await online.listAll("/docs/made").map(\.name) == ["x.txt"])
        #expect(try await online.item(at: "/docs/made/x.txt").properties[CacheMarks.pending] == "true")
        #expect(rig.recording.requests.count == before, "no request for paths the server does not have yet")
    }

    @Test("a cache clear keeps the journal, and its items are still shown, made from the entries")
    func shownAfterCacheClear() async throws {
        let rig = try OverlayRig()
        defer { rig.remove() }
        try await rig.seed()
        let offline = rig.unreachable()
        _ = try await offline.upload(DataSource(string: "kept\n"), to: "/docs", name: "kept.txt", options: UploadOptions())
        try await rig.store.clear()
        let online = rig.online()
        let listed = try await online.listAll("/docs")
        #expect(pending(listed) == ["kept.txt"])
        #expect(listed.first { $0.name == "kept.txt" }?.size == 5)
        #expect(try await online.replayJournal().replayed.count == 1)
        #expect(try await rig.direct.item(at: "/docs/kept.txt").size == 5)
    }
}

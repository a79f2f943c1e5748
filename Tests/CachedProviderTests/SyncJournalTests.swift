import Foundation
import HTTPProviderKit
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderConformance
import ProviderTesting
import SharedCache
import Testing

/// A transport that sends requests through, and then, while armed, loses the answer to one method:
/// the server acted, the client saw a network error (a crash between "server acted" and "record removed").
private final class LosingTransport: HTTPTransport {
    let base: any HTTPTransport
    private let armed = NIOLockedValueBox<String?>(nil)
    private let breaking = NIOLockedValueBox<String?>(nil)
    init(_ base: any HTTPTransport) { self.base = base }
    func loseNextAnswer(to method: String) { armed.withLockedValue { $0 = method } }
    /// The next request of `method` fails before it is sent, with an error nothing in Strata knows (a bug).
    func breakNext(_ method: String) { breaking.withLockedValue { $0 = method } }
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let broken = breaking.withLockedValue { method -> Bool in
            guard method == request.method.rawValue else { return false }
            method = nil
            return true
        }
        if broken { throw LocalBug() }
        let response = try await base.send(request)
        let lose = armed.withLockedValue { method -> Bool in
            guard method == request.method.rawValue else { return false }
            method = nil
            return true
        }
        if lose { throw ProviderError(.network, "answer lost after the server acted") }
        return response
    }
}

/// An error no layer of Strata knows: a bug, or a component that did not map its own.
private struct LocalBug: Error {}

/// The reference server behind a counting, fault-injecting transport, a cache and a journal.
private struct JournalRig {
    let server = InMemoryServer()
    let recording: RecordingTransport
    let losing: LosingTransport
    let faults: FaultInjectingTransport
    let base: InMemoryProvider
    let direct: InMemoryProvider
    let store: CacheStore
    let directory: URL

    init(capabilities: Capabilities = InMemoryProvider.fullCapabilities) throws {
        recording = RecordingTransport(passingTo: server)
        losing = LosingTransport(recording)
        faults = FaultInjectingTransport(losing)
        // No retries inside the provider: a lost answer reaches the journal as the crash it stands for.
        base = InMemoryProvider(transport: faults, capabilities: capabilities, retry: .none)
        direct = InMemoryProvider(transport: server, capabilities: capabilities)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try CacheStore(directory: directory)
    }

    func online() -> CachedProvider { CachedProvider(wrapping: base, store: store, offlineWrites: .whenUnreachable) }
    func offline() -> CachedProvider { CachedProvider(wrapping: base, store: store, policy: .cacheOnly, offlineWrites: .always) }
    func cutNetwork() { faults.inject(count: Int.max) { _ in .connectionFailure } }

    func content(_ path: ItemPath) async throws -> String {
        let sink = MemorySink()
        _ = try await direct.download(path, to: sink, options: DownloadOptions())
        return String(decoding: await sink.bytes, as: UTF8.self)
    }

    func journalFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("journal").path)) ?? []).filter { $0.hasSuffix(".bin") }
    }

    /// Write requests the server received, as `METHOD path` lines.
    func writes() -> [String] {
        recording.requests.filter { ["PUT", "POST", "DELETE", "MOVE", "COPY", "MKCOL"].contains($0.method.rawValue) }
            .map { "\($0.method.rawValue) \($0.url.path)" }
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

@Suite("SyncJournal: offline writes recorded, folded and replayed")
struct SyncJournalTests {
    private func seeded(_ rig: JournalRig, _ files: [String: String] = ["a.txt": "server a\n", "b.txt": "server b\n"]) async throws {
        _ = try await rig.direct.createFolder(named: "docs", in: .root)
        for (name, text) in files {
            _ = try await rig.direct.upload(DataSource(string: text), to: "/docs", name: name, options: UploadOptions())
        }
        _ = try await rig.online().listAll("/docs")
    }

    @Test("two offline uploads of one file are one entry holding the second bytes and the first recorded copy")
    func uploadsFold() async throws {
        let rig = try JournalRig()
        defer { rig.remove() }
        try await seeded(rig)
        let seen = try #require(try await rig.store.item(at: "/docs/a.txt", account: rig.base.account)?.item)
        let offline = rig.offline()
        _ = try await offline.upload(DataSource(string: "one\n"), to: "/docs", name: "a.txt", options: UploadOptions())
        let second = try await offline.upload(DataSource(string: "second\n"), to: "/docs", name: "a.txt", options: UploadOptions())
        #expect(second.properties[CacheMarks.pending] == "true")
        let entries = try await offline.journal.entries()
        #expect(entries.count == 1)
        #expect(entries.first?.action.content?.size == 7)
        #expect(entries.first?.recorded?.etag == seen.etag)
        #expect(rig.journalFiles().count == 1, "the first upload's bytes are gone")
        let report = try await rig.online().replayJournal()
        #expect(report.replayed.count == 1)
        #expect(try await rig.content("/docs/a.txt") == "second\n")
        #expect(rig.writes().filter { $0.hasPrefix("PUT") }.count == 1, "\(rig.writes())")
        #expect(rig.journalFiles().isEmpty)
    }

    @Test("an upload then a delete of a new file is nothing; of a server file, a delete of the file as first seen")
    func uploadThenDelete() async throws {
        let rig = try JournalRig()
        defer { rig.remove() }
        try await seeded(rig)
        let offline = rig.offline()
        _ = try await offline.upload(DataSource(string: "new\n"), to: "/docs", name: "new.txt", options: UploadOptions())
        try await offline.delete("/docs/new.txt")
        #expect(try await offline.journal.count() == 0)
        #expect(rig.journalFiles().isEmpty)
        _ = try await offline.upload(DataSource(string: "mine\n"), to: "/docs", name: "a.txt", options: UploadOptions())
        try await offline.delete("/docs/a.txt")
        let entries = try await offline.journal.entries()
        #expect(entries.map(\.action) == [.delete("/docs/a.txt")])
        #expect(entries.first?.recorded?.size == 9)
        #expect(try await offline.listAll("/docs").map(\.name) == ["b.txt"])
        let report = try await rig.online().replayJournal()
        #expect(report.replayed.count == 1)
        #expect(try await rig.direct.listAll("/docs").map(\.name) == ["b.txt"])
        #expect(rig.writes().count == 1 && rig.writes().first?.hasPrefix("DELETE") == true, "\(rig.writes())")
    }

    @Test("a rename of a pending upload is an upload under the new name; two moves are one; a folder made offline takes what is in it along")
    func renamesFold() async throws {
        let rig = try JournalRig()
        defer { rig.remove() }
        try await seeded(rig)
        let offline = rig.offline()
        _ = try await offline.upload(DataSource(string: "draft\n"), to: "/docs", name: "draft.txt", options: UploadOptions())
        _ = try await offline.move("/docs/draft.txt", to: "/docs/final.txt", options: TransferOptions())
        _ = try await offline.move("/docs/b.txt", to: "/docs/b2.txt", options: TransferOptions())
        _ = try await offline.move("/docs/b2.txt", to: "/docs/b3.txt", options: TransferOptions())
        let made = try await offline.createFolder(named: "made", in: "/docs")
        _ = try await offline.upload(DataSource(string: "inner\n"), to: made.path, name: "inner.txt", options: UploadOptions())
        _ = try await offline.move("/docs/made", to: "/docs/renamed", options: TransferOptions())
        let actions = try await offline.journal.entries().map(\.action)
        #expect(actions.count == 4)
        #expect(actions[0].kind == .upload && actions[0].path == "/docs/final.txt")
        #expect(actions[1] == .move(from: "/docs/b.txt", to: "/docs/b3.txt"))
        #expect(actions[2] == .createFolder("/docs/renamed"))
        #expect(actions[3].path == "/docs/renamed/inner.txt")
        #expect(try await offline.listAll("/docs").map(\.name) == ["a.txt", "b3.txt", "final.txt", "renamed"])
        #expect(try await offline.listAll("/docs/renamed").map(\.name) == ["inner.txt"])

        let report = try await rig.online().replayJournal()
        #expect(report.replayed.count == 4, "\(report)")
        #expect(try await rig.direct.listAll("/docs").map(\.name) == ["a.txt", "b3.txt", "final.txt", "renamed"])
        #expect(try await rig.content("/docs/renamed/inner.txt") == "inner\n")
        #expect(try await rig.content("/docs/final.txt") == "draft\n")
    }

    @Test("with the network cut, writes go to the journal, the view shows them pending, events tell, and the replay applies them when it is back")
    func whenUnreachable() async throws {
        let rig = try JournalRig()
        defer { rig.remove() }
        try await seeded(rig)
        let cached = rig.online()
        let events = cached.journal.events()
        let collector = Task { () -> [String] in
            var seen: [String] = []
            for await event in events {
                switch event {
                case .recorded(let entry): seen.append("recorded \(entry.action.kind)")
                case .replayed(let entry, _): seen.append("replayed \(entry.action.kind)")
                case .conflict: seen.append("conflict")
                case .failed: seen.append("failed")
                case .resolved: seen.append("resolved")
                }
                if seen.count == 5 { break }
            }
            return seen
        }
        rig.cutNetwork()
        let item = try await cached.upload(DataSource(string: "written offline\n"), to: "/docs", name: "c.txt", options: UploadOptions())
        #expect(item.properties[CacheMarks.pending] == "true")
        _ = try await cached.createFolder(named: "sub", in: "/docs")
        #expect(try await cached.listAll("/docs").map(\.name) == ["a.txt", "b.txt", "c.txt", "sub"])
        let stopped = try await cached.replayJournal()
        #expect(stopped.stoppedOffline && stopped.remaining == 2)
        let faultsFree = FaultInjectingTransport(rig.recording)
        let back = CachedProvider(wrapping: InMemoryProvider(transport: faultsFree), store: rig.store, offlineWrites: .whenUnreachable)
        let report = try await back.replayJournal()
        #expect(report.replayed.count == 2 && report.remaining == 0, "\(report)")
        #expect(try await rig.content("/docs/c.txt") == "written offline\n")
        #expect(try await rig.direct.item(at: "/docs/sub").kind == .folder)
        let seen = await collector.value
        #expect(seen == ["recorded upload", "recorded createFolder", "failed", "replayed upload", "replayed createFolder"], "\(seen)")
    }

    @Test("online again, a write at, above or below a waiting entry is journaled behind it; an unrelated write goes to the server")
    func overlappingWritesStayInOrder() async throws {
        let rig = try JournalRig()
        defer { rig.remove() }
        try await seeded(rig)
        let cached = rig.online()
        #expect(try await cached.journal.holds(["/docs"]) == false)
        rig.cutNetwork()
        _ = try await cached.upload(DataSource(string: "offline\n"), to: "/docs", name: "c.txt", options: UploadOptions())
        let back = CachedProvider(wrapping: InMemoryProvider(transport: rig.recording), store: rig.store, offlineWrites: .whenUnreachable)
        #expect(try await back.journal.holds(["/docs/c.txt"]))
        #expect(try await back.journal.holds(["/docs"]))
        #expect(try await back.journal.holds(["/docs/c.txt/inner"]))
        #expect(try await back.journal.holds(["/docs/c.txt2", "/other"]) == false)
        let sentBefore = rig.writes().count
        // Below the pending upload's folder: journaled, nothing sent.
        _ = try await back.upload(DataSource(string: "second\n"), to: "/docs", name: "c.txt", options: UploadOptions())
        #expect(rig.writes().count == sentBefore)
        #expect(try await back.journal.count() == 1)
        // Elsewhere: sent at once.
        _ = try await back.createFolder(named: "elsewhere", in: .root)
        #expect(rig.writes().count == sentBefore + 1)
        #expect(try await back.journal.count() == 1)
        let report = try await back.replayJournal()
        #expect(report.replayed.count == 1 && report.remaining == 0, "\(report)")
        #expect(try await rig.content("/docs/c.txt") == "second\n")
    }

    @Test("online again before the replay, the server's search finds what was written offline, marked pending, and no longer what was deleted offline")
    func searchShowsOfflineWrites() async throws {
        let rig = try JournalRig()
        defer { rig.remove() }
        try await seeded(rig)
        let cached = rig.online()
        rig.cutNetwork()
        _ = try await cached.upload(DataSource(string: "offline\n"), to: "/docs", name: "note-offline.txt", options: UploadOptions())
        try await cached.delete("/docs/a.txt")
        let back = CachedProvider(wrapping: InMemoryProvider(transport: rig.recording), store: rig.store, offlineWrites: .whenUnreachable)
        #expect(back.capabilities.supports(.search))
        let found = try await back.search(.nameContains("note-offline"), page: PageRequest())
        #expect(found.items.map(\.path) == ["/docs/note-offline.txt"])
        #expect(found.items.first?.properties[CacheMarks.pending] == "true")
        let txt = try await back.search(.nameContains(".txt"), page: PageRequest())
        #expect(Set(txt.items.map(\.path)) == ["/docs/b.txt", "/docs/note-offline.txt"])
        #expect(txt.totalCount == 2)
        let limited = try await back.search(.nameContains(".txt"), page: PageRequest(limit: 1))
        #expect(limited.items.count == 1)
    }

    @Test("quota exceeded or a server error keeps the entry, reported as failed, and a later replay sends it once")
    func failuresKeepTheEntry() async throws {
        let rig = try JournalRig()
        defer { rig.remove() }
        try await seeded(rig)
        _ = try await rig.offline().upload(DataSource(string: "big\n"), to: "/docs", name: "big.txt", options: UploadOptions())
        rig.faults.inject(.status(507, retryAfter: nil), method: "PUT")
        let first = try await rig.online().replayJournal()
        #expect(first.failed.count == 1 && first.remaining == 1, "\(first)")
        let entry = try #require(try await rig.online().journal.entries().first)
        #expect(entry.state == .failed && entry.lastError != nil)
        let second = try await rig.online().replayJournal()
        #expect(second.replayed.count == 1 && second.remaining == 0, "\(second)")
        #expect(try await rig.content("/docs/big.txt") == "big\n")
    }

    @Test("an error nothing recognises fails its entry without taking the server for unreachable: the replay goes on with the others")
    func unknownErrorIsNotOffline() async throws {
        let rig = try JournalRig()
        defer { rig.remove() }
        try await seeded(rig)
        _ = try await rig.offline().upload(DataSource(string: "one\n"), to: "/docs", name: "one.txt", options: UploadOptions())
        _ = try await rig.offline().createFolder(named: "other", in: .root)
        rig.losing.breakNext("PUT")
        let report = try await rig.online().replayJournal()
        #expect(!report.stoppedOffline, "\(report)")
        #expect(report.failed.values.map(\.code) == [.unknown], "\(report)")
        #expect(report.replayed.count == 1 && report.remaining == 1, "\(report)")
        #expect(!rig.writes().contains { $0.hasPrefix("PUT") }, "the upload was not sent again: \(rig.writes())")
        #expect(rig.writes().contains { $0.hasPrefix("MKCOL") }, "\(rig.writes())")
    }

    @Test("an answer lost after the server acted: the next replay sees the upload and the move done and sends neither again")
    func lostAnswers() async throws {
        let rig = try JournalRig()
        defer { rig.remove() }
        try await seeded(rig)
        let offline = rig.offline()
        _ = try await offline.upload(DataSource(string: "only once\n"), to: "/docs", name: "a.txt", options: UploadOptions())
        _ = try await offline.move("/docs/b.txt", to: "/docs/moved.txt", options: TransferOptions())
        rig.losing.loseNextAnswer(to: "PUT")
        let first = try await rig.online().replayJournal()
        #expect(first.stoppedOffline && first.remaining == 2, "\(first)")
        rig.losing.loseNextAnswer(to: "MOVE")
        let second = try await rig.online().replayJournal()
        #expect(second.replayed.count == 1 && second.stoppedOffline, "\(second)")
        let third = try await rig.online().replayJournal()
        #expect(third.replayed.count == 1 && third.remaining == 0, "\(third)")
        #expect(try await rig.content("/docs/a.txt") == "only once\n")
        #expect(try await rig.content("/docs/moved.txt") == "server b\n")
        let writes = rig.writes()
        #expect(writes.filter { $0.hasPrefix("PUT") && $0.contains("a.txt") }.count == 1, "\(writes)")
        #expect(writes.filter { $0.hasPrefix("MOVE") }.count == 1, "\(writes)")
    }

    @Test("If-Match is sent only where the provider declares preconditions; else the etag is compared from a fresh item")
    func ifMatchOnlyWhereHonoured() async throws {
        for withPreconditions in [true, false] {
            var capabilities = InMemoryProvider.fullCapabilities
            if !withPreconditions { capabilities.features.remove(.preconditions) }
            let rig = try JournalRig(capabilities: capabilities)
            defer { rig.remove() }
            try await seeded(rig)
            _ = try await rig.offline().upload(DataSource(string: "mine\n"), to: "/docs", name: "a.txt", options: UploadOptions())
            let report = try await rig.online().replayJournal()
            #expect(report.replayed.count == 1)
            let put = try #require(rig.recording.requests.last { $0.method.rawValue == "PUT" })
            #expect((put.headers.first(name: "If-Match") != nil) == withPreconditions, "preconditions \(withPreconditions)")
        }
    }

    @Test("resolutions: retry after the folder came back, drop, and events for each")
    func resolutions() async throws {
        let rig = try JournalRig()
        defer { rig.remove() }
        try await seeded(rig)
        let offline = rig.offline()
        _ = try await offline.upload(DataSource(string: "x\n"), to: "/docs", name: "x.txt", options: UploadOptions())
        _ = try await offline.upload(DataSource(string: "y\n"), to: "/docs", name: "a.txt", options: UploadOptions())
        try await rig.direct.delete("/docs")
        let report = try await rig.online().replayJournal()
        #expect(report.conflicts.map(\.reason) == [.targetFolderGone, .targetFolderGone], "\(report)")
        _ = try await rig.direct.createFolder(named: "docs", in: .root)
        let online = rig.online()
        #expect(try await online.resolveJournal(report.conflicts[0].entryID, .retry) == nil)
        #expect(try await rig.content("/docs/x.txt") == "x\n")
        // The second was an upload over a file that is gone: a retry uploads it (nothing of the server's is lost).
        try await online.resolveJournal(report.conflicts[1].entryID, .drop)
        #expect(try await online.journal.count() == 0)
        await #expect(throws: ProviderError.self) { try await online.resolveJournal(report.conflicts[1].entryID, .drop) }
    }
}

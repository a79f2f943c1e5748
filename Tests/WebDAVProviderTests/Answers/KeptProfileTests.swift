import Foundation
import ProviderAPI
import Testing
import WebDAVProvider

/// The profile a connect probed is kept in the ``ServerFactStore``: the next process reads with
/// no probe (a `get` is one `GET`), and confirms the server's name before its first write.
@Suite("WebDAV profile kept across processes")
struct KeptProfileTests {
    /// A store holding what a first process learnt from `server` (profile and verdict), and the
    /// count of requests that process sent.
    private func firstRun(_ server: FakeDAVServer) async throws -> MemoryFactStore {
        let store = MemoryFactStore()
        var configuration = server.configuration()
        configuration.serverFacts = store
        let provider = try await WebDAVProvider.connect(configuration)
        #expect(server.requests.prefix(2).map { $0.split(separator: " ").first.map(String.init) } == ["OPTIONS", "PROPFIND"])
        _ = try await provider.upload(DataSource(string: "0123456789"), to: .root, name: "f.txt", options: UploadOptions())
        #expect(try await store.fact("webdav.profile", server: server.origin + "/", user: "u") != nil)
        return store
    }

    @Test("with a kept profile, a download is one GET, checked as before")
    func downloadIsOneRequest() async throws {
        let server = FakeDAVServer(.init(server: "Fake/1"))
        let store = try await firstRun(server)
        let before = server.requests.count
        var configuration = server.configuration()
        configuration.serverFacts = store
        let provider = try await WebDAVProvider.connect(configuration)
        let sink = MemorySink()
        let result = try await provider.download("/f.txt", to: sink, options: DownloadOptions())
        #expect(String(decoding: await sink.data, as: UTF8.self) == "0123456789")
        #expect(result.item.size == 10)
        #expect(Array(server.requests.dropFirst(before)).map { $0.split(separator: " ").first.map(String.init) } == ["GET"], "\(server.requests.dropFirst(before))")
        // A folder is not downloaded as a file, probe or no probe.
        _ = try await provider.createFolder(named: "d", in: .root)
        await #expect(throws: ProviderError.self) { try await provider.download("/d", to: MemorySink(), options: DownloadOptions()) }
    }

    @Test("a kept profile older than a day is probed again")
    func staleProfileProbed() async throws {
        let server = FakeDAVServer(.init(server: "Fake/1"))
        let store = try await firstRun(server)
        let kept = try #require(try await store.fact("webdav.profile", server: server.origin + "/", user: "u"))
        try await store.remember(ServerFact(kind: kept.kind, server: kept.server, user: kept.user, value: kept.value, learntAt: Date().addingTimeInterval(-2 * 24 * 60 * 60)))
        let before = server.requests.count
        var configuration = server.configuration()
        configuration.serverFacts = store
        _ = try await WebDAVProvider.connect(configuration)
        #expect(server.requests.dropFirst(before).first?.hasPrefix("OPTIONS") == true)
    }

    @Test("before the first write the server's name is confirmed; a server that now names itself otherwise is verified again")
    func changedServerVerifiedAgain() async throws {
        let old = FakeDAVServer(.init(server: "Fake/1"))
        let kept = try await firstRun(old)
        // Another process finds the same facts for a server that was upgraded behind the URL.
        let upgraded = FakeDAVServer(.init(server: "Fake/2", honoursPreconditions: false, keepsPartialBodies: true))
        let store = MemoryFactStore()
        for fact in kept.all {
            try await store.remember(ServerFact(kind: fact.kind, server: upgraded.origin + "/", user: fact.user, value: fact.value, learntAt: fact.learntAt))
        }
        var configuration = upgraded.configuration()
        configuration.serverFacts = store
        let provider = try await WebDAVProvider.connect(configuration)
        #expect(upgraded.requests.isEmpty, "no probe at connect: \(upgraded.requests)")
        // Until confirmed, the kept verdict of Fake/1 stands; the write confirms first and drops it.
        _ = try await provider.createFolder(named: "d", in: .root)
        #expect(upgraded.requests.first?.hasPrefix("OPTIONS") == true, "\(upgraded.requests)")
        #expect(upgraded.requests.contains { $0.hasPrefix("MKCOL /strata-verify-") }, "verified again: \(upgraded.requests)")
        #expect(provider.profile.server == "Fake/2")
        #expect(provider.profile.verified.keepsPartialUploads == true)
        #expect(provider.profile.verified.refusesStaleIfMatch == false)
        // The same server, confirmed: a further write sends no second OPTIONS.
        let options = upgraded.requests.filter { $0.hasPrefix("OPTIONS") }.count
        _ = try await provider.createFolder(named: "e", in: .root)
        #expect(upgraded.requests.filter { $0.hasPrefix("OPTIONS") }.count == options)
    }

    @Test("a server still naming itself as kept keeps its verdict: one OPTIONS before the first write, no verification")
    func sameServerConfirmed() async throws {
        let server = FakeDAVServer(.init(server: "Fake/1"))
        let store = try await firstRun(server)
        let before = server.requests.count
        var configuration = server.configuration()
        configuration.serverFacts = store
        let provider = try await WebDAVProvider.connect(configuration)
        #expect(provider.profile.verified.isComplete)
        _ = try await provider.createFolder(named: "d", in: .root)
        let sent = Array(server.requests.dropFirst(before))
        #expect(sent.first?.hasPrefix("OPTIONS") == true, "\(sent)")
        #expect(!sent.contains { $0.contains("strata-verify-") }, "\(sent)")
    }
}

import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import Testing
import WebDAVProvider

/// A fact store in memory, standing in for the shared cache of another process.
final class MemoryFactStore: ServerFactStore {
    private let facts = NIOLockedValueBox<[String: ServerFact]>([:])

    var all: [ServerFact] { facts.withLockedValue { Array($0.values) } }

    func fact(_ kind: String, server: String, user: String) async throws -> ServerFact? {
        facts.withLockedValue { $0["\(kind) \(user)@\(server)"] }
    }

    func remember(_ fact: ServerFact) async throws {
        facts.withLockedValue { $0["\(fact.kind) \(fact.user)@\(fact.server)"] = fact }
    }
}

/// Verdicts kept in a ``ServerFactStore`` spare the next process the verification, while they are trusted.
@Suite("WebDAV verdicts remembered across processes")
struct RememberedVerdictTests {
    /// Verifies `server` once through a provider that keeps its verdict in a store, and returns
    /// that verdict as another process would find it for `other` (a server this process never saw).
    private func keptVerdict(from server: FakeDAVServer, for other: FakeDAVServer, learntAt: Date = Date()) async throws -> MemoryFactStore {
        let store = MemoryFactStore()
        var configuration = server.configuration()
        configuration.serverFacts = store
        let provider = try await WebDAVProvider.connect(configuration)
        _ = try await provider.createFolder(named: "first", in: .root)
        // Beside the verdict, the probed profile is kept (`KeptProfileTests`).
        let kept = try #require(store.all.first { $0.kind == "webdav.verified" })
        #expect(store.all.count == 2)
        #expect(store.all.contains { $0.kind == "webdav.profile" })
        #expect(kept.kind == "webdav.verified")
        #expect(kept.server == server.origin + "/")
        #expect(kept.user == "u")
        let next = MemoryFactStore()
        try await next.remember(ServerFact(kind: kept.kind, server: other.origin + "/", user: kept.user, value: kept.value, learntAt: learntAt))
        return next
    }

    @Test("the next process takes the kept verdict at connect and sends no probe")
    func takenAtConnect() async throws {
        let server = FakeDAVServer(.init(server: "Fake/1", honoursPreconditions: false, keepsPartialBodies: true))
        let other = FakeDAVServer(.init(server: "Fake/1", honoursPreconditions: false, keepsPartialBodies: true))
        let store = try await keptVerdict(from: server, for: other)
        var configuration = other.configuration()
        configuration.serverFacts = store
        let provider = try await WebDAVProvider.connect(configuration)
        #expect(provider.profile.verified.isComplete)
        #expect(provider.profile.verified.keepsPartialUploads == true)
        #expect(provider.profile.verified.refusesStaleIfMatch == false)
        _ = try await provider.upload(DataSource(string: "x"), to: .root, name: "f.txt", options: UploadOptions())
        #expect(!other.requests.contains { $0.contains("strata-verify-") }, "\(other.requests)")
    }

    @Test("a verdict kept before name rules were verified (no version) is verified again")
    func keptWithoutNames() async throws {
        let server = FakeDAVServer(.init(server: "Fake/1"))
        let store = MemoryFactStore()
        var old = WebDAVVerifiedBehaviour(
            refusesIfNoneMatchStar: true, refusesStaleIfMatch: true, refusesStaleIfHeader: true, acceptsCurrentETag: true,
            mkcolRefusesExisting: true, listsDotFiles: true, reportsETags: true, reportsContentTypes: false, keepsPartialUploads: false)
        let encoded = try JSONEncoder().encode(old)
        let record = #"{"server":"Fake/1","at":\#(Date().timeIntervalSinceReferenceDate),"verified":"# + String(decoding: encoded, as: UTF8.self) + "}"
        try await store.remember(ServerFact(kind: "webdav.verified", server: server.origin + "/", user: "u", value: Data(record.utf8), learntAt: Date()))
        var configuration = server.configuration()
        configuration.serverFacts = store
        let provider = try await WebDAVProvider.connect(configuration)
        #expect(provider.profile.verified == .unverified)
        _ = try await provider.createFolder(named: "d", in: .root)
        #expect(server.requests.contains { $0.hasPrefix("MKCOL /strata-verify-") })
        old.refusedNameCharacters = []
        old.allowsLeadingSpace = true
        old.nameNormalization = .preserved
        old.mergesOnFolderOverwrite = false
        old.nameCase = .sensitive
        old.copyMergesOnFolderOverwrite = false
        old.allowsTrailingSpace = true
        old.allowsTrailingDot = true
        old.maxNameBytes = 255
        old.normalizationInsensitive = false
        old.namesNotKept = [.put: [], .move: [], .copy: [], .mkcol: []]
        old.servesRanges = true
        old.rangeProblems = []
        old.putCreatesParents = false
        #expect(provider.profile.verified == old)
        // The kept verdict is replaced by one with the name rules, which the next process takes.
        let next = try await WebDAVProvider.connect(configuration)
        #expect(next.profile.verified == old)
    }

    @Test("a verdict older than a day, or about a server that now names itself otherwise, is verified again")
    func staleOrChanged() async throws {
        let server = FakeDAVServer(.init(server: "Fake/1"))
        let old = FakeDAVServer(.init(server: "Fake/1"))
        let stale = try await keptVerdict(from: server, for: old, learntAt: Date().addingTimeInterval(-2 * 24 * 60 * 60))
        var configuration = old.configuration()
        configuration.serverFacts = stale
        let provider = try await WebDAVProvider.connect(configuration)
        #expect(provider.profile.verified == .unverified)
        _ = try await provider.createFolder(named: "d", in: .root)
        #expect(old.requests.contains { $0.hasPrefix("MKCOL /strata-verify-") })
        // The fresh verdict replaced the stale one.
        #expect(try await stale.fact("webdav.verified", server: old.origin + "/", user: "u").map { Date().timeIntervalSince($0.learntAt) < 60 } == true)

        let upgraded = FakeDAVServer(.init(server: "Fake/2"))
        let kept = try await keptVerdict(from: FakeDAVServer(.init(server: "Fake/1")), for: upgraded)
        var changed = upgraded.configuration()
        changed.serverFacts = kept
        let next = try await WebDAVProvider.connect(changed)
        #expect(next.profile.verified == .unverified)
        _ = try await next.createFolder(named: "d", in: .root)
        #expect(upgraded.requests.contains { $0.hasPrefix("MKCOL /strata-verify-") })
    }
}

import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import StrataTestSupport
import Testing
import HTTPProviderKit

/// A provider that only remembers how it was configured.
private struct FakeProvider: StubProvider {
    let configuration: ProviderConfiguration
    let connected: Bool
    var capabilities: Capabilities { Capabilities(features: []) }
    var account: ProviderAccount { ProviderAccount(kind: "fake", server: configuration.url.absoluteString) }

}

private struct FakeFactory: ProviderFactory {
    let kind: String
    let schemes: [String: String]
    var confidence: Int?
    var rootDepth: Int?
    let probed = Counter()

    init(kind: String, schemes: [String: String], confidence: Int? = nil, rootDepth: Int? = nil) {
        self.kind = kind
        self.schemes = schemes
        self.confidence = confidence
        self.rootDepth = rootDepth
    }

    func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
        FakeProvider(configuration: configuration, connected: false)
    }

    func connect(_ configuration: ProviderConfiguration) async throws -> any StorageProvider {
        FakeProvider(configuration: configuration, connected: true)
    }

    /// With `rootDepth`, the first segments of the path belong to the root (like a context path).
    func locate(_ url: URL) throws -> (root: URL, path: ItemPath) {
        guard let rootDepth else {
            let split = try defaultLocate(url)
            return split
        }
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        let all = try ItemPath(components.path).segments
        components.path = "/" + all.prefix(rootDepth).joined(separator: "/") + "/"
        return (components.url!, try ItemPath(segments: Array(all.dropFirst(rootDepth))))
    }

    private func defaultLocate(_ url: URL) throws -> (root: URL, path: ItemPath) {
        // The protocol extension's default.
        struct Plain: ProviderFactory {
            var kind: String { "plain" }
            var schemes: [String: String] { [:] }
            func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
                throw ProviderError.unsupported("x")
            }
        }
        return try Plain().locate(url)
    }

    func probe(_ url: URL, context: ProbeContext) async -> ProbeResult? {
        probed.increment()
        return confidence.map { ProbeResult(kind: kind, confidence: $0, detail: "fake", url: url) }
    }
}

private let transport = ScriptedTransport([])

@Suite("ProviderRegistry")
struct ProviderRegistryTests {
    private func registry(_ factories: FakeFactory...) -> ProviderRegistry {
        let registry = ProviderRegistry()
        for factory in factories { registry.register(factory) }
        return registry
    }

    @Test("schemes route to their factory and map to http/https without user info")
    func routing() throws {
        let reg = registry(
            FakeFactory(kind: "fake", schemes: ["fake": "http", "fakes": "https"]),
            FakeFactory(kind: "other", schemes: ["other": "http"]))
        #expect(reg.kinds == ["fake", "other"])
        let (factory, httpURL) = try reg.route(url("fakes://ann:pw@host.example:8443/root/a%20b?x=1"))
        #expect(factory.kind == "fake")
        #expect(httpURL.absoluteString == "https://host.example:8443/root/a%20b?x=1")
        #expect(try reg.route(url("FAKE://h/x")).wireURL.absoluteString == "http://h/x")
        #expect(try reg.route(url("other://h/")).factory.kind == "other")
        #expect(reg.factory(scheme: "FAKES")?.kind == "fake")
        #expect(reg.factory(kind: "other") != nil)
        #expect(reg.factory(kind: "none") == nil)
    }

    @Test("an unknown scheme is unsupported and never shows the password", arguments: ["gopher://ann:pw@h/x", "http://h/x", "h/x"])
    func unknownScheme(_ text: String) async throws {
        let reg = registry(FakeFactory(kind: "fake", schemes: ["fake": "http"]))
        let error = #expect(throws: ProviderError.self) { try reg.route(url(text)) }
        #expect(error?.code == .unsupported)
        #expect(!(error?.description.contains("pw") ?? true))
        for probe in [false, true] {
            let madeError = await #expect(throws: ProviderError.self) {
                try await reg.provider(for: url(text), services: .transport(transport), probe: probe)
            }
            #expect(madeError?.code == .unsupported)
        }
    }

    @Test("a provider made without probing splits the URL into the provider's root and the item's path")
    func resolve() async throws {
        let reg = registry(FakeFactory(kind: "fake", schemes: ["fake": "http"]))
        let (provider, path) = try await reg.provider(
            for: url("fake://127.0.0.1:8081/docs/a%20b.txt"), credentials: .token("t"), options: ["k": "v"],
            services: .transport(transport), probe: false)
        let fake = try #require(provider as? FakeProvider)
        #expect(fake.configuration.url.absoluteString == "http://127.0.0.1:8081/")
        #expect(fake.configuration.credentials == .token("t"))
        #expect(fake.configuration.options == ["k": "v"])
        #expect(!fake.connected)
        #expect(path.segments == ["docs", "a b.txt"])
    }

    @Test("a provider for a URL is rooted where the adapter says, and probes its server unless told not to")
    func resolveWithContextPath() async throws {
        let reg = registry(FakeFactory(kind: "ctx", schemes: ["ctx": "https"], rootDepth: 1))
        let (provider, path) = try await reg.provider(
            for: url("ctx://h.example/nuxeo/default-domain/ws"), services: .transport(transport), probe: false)
        #expect((provider as? FakeProvider)?.configuration.url.absoluteString == "https://h.example/nuxeo/")
        #expect((provider as? FakeProvider)?.connected == false)
        #expect(path.description == "/default-domain/ws")

        let (connected, connectedPath) = try await reg.provider(for: url("ctx://h.example/nuxeo/x"), services: .transport(transport))
        #expect((connected as? FakeProvider)?.connected == true)
        #expect((connected as? FakeProvider)?.configuration.url.absoluteString == "https://h.example/nuxeo/")
        #expect(connectedPath.description == "/x")
    }

    @Test("root: .url roots the provider at the URL itself, with or without a probe", arguments: [false, true])
    func rootedAtURL(_ probe: Bool) async throws {
        let reg = registry(FakeFactory(kind: "ctx", schemes: ["ctx": "https"], rootDepth: 1))
        let (provider, path) = try await reg.provider(
            for: url("ctx://ann:pw@h.example/nuxeo/default-domain/ws/"), credentials: .basic(username: "ann", password: "pw"),
            services: .transport(transport), root: .url, probe: probe)
        let fake = try #require(provider as? FakeProvider)
        #expect(fake.configuration.url.absoluteString == "https://h.example/nuxeo/default-domain/ws/")
        #expect(fake.configuration.credentials == .basic(username: "ann", password: "pw"))
        #expect(fake.connected == probe)
        #expect(path.isRoot)
    }

    @Test("a provider for a URL whose path climbs out is refused")
    func resolveRefusesDotDot() async {
        let reg = registry(FakeFactory(kind: "fake", schemes: ["fake": "http"]))
        let error = await #expect(throws: ProviderError.self) {
            try await reg.provider(for: url("fake://h/a/%2E%2E/..//b"), services: .transport(transport), probe: false)
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test("saved remotes round-trip through a file")
    func remotesRoundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let first = ProviderRegistry()
        let work = SavedRemote(name: "work", kind: "fake", url: url("fakes://dav.example/files/"), options: ["dialect": "nextcloud"])
        let home = SavedRemote(name: "home", kind: "other", url: url("http://127.0.0.1:8080/"))
        first.addRemote(work)
        first.addRemote(home)
        #expect(first.savedRemotes.map(\.name) == ["home", "work"])
        try first.saveRemotes(to: dir.file("remotes.json"))

        let second = ProviderRegistry()
        try second.loadRemotes(from: dir.file("remotes.json"))
        #expect(second.savedRemotes == [home, work])
        #expect(second.remote(named: "work") == work)
        #expect(second.remote(named: "nope") == nil)
    }

    @Test("a missing remotes file adds none; a corrupt one is an error")
    func remotesFileErrors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let reg = ProviderRegistry()
        try reg.loadRemotes(from: dir.file("missing.json"))
        #expect(reg.savedRemotes.isEmpty)
        try Data("[{\"name\": 3}]".utf8).write(to: dir.file("bad.json"))
        let error = #expect(throws: ProviderError.self) { try reg.loadRemotes(from: dir.file("bad.json")) }
        #expect(error?.code == .invalidArgument)
    }

    @Test("a saved remote is made with its credentials from the store")
    func remoteProvider() async throws {
        let reg = registry(FakeFactory(kind: "fake", schemes: ["fake": "http", "fakes": "https"]))
        reg.addRemote(SavedRemote(name: "work", kind: "fake", url: url("fakes://dav.example/files/"), options: ["o": "1"]))
        reg.addRemote(SavedRemote(name: "orphan", kind: "missing", url: url("http://h/")))
        let store = InMemoryCredentialStore()
        try await store.setCredentials(.basic(username: "ann", password: "pw"), for: "work")

        let services = ProviderServices.transport(transport)
        for probe in [false, true] {
            let provider = try await reg.provider(remote: "work", store: store, services: services, probe: probe)
            let fake = try #require(provider as? FakeProvider)
            #expect(fake.configuration.url.absoluteString == "https://dav.example/files/")
            #expect(fake.configuration.credentials == .basic(username: "ann", password: "pw"))
            #expect(fake.configuration.options == ["o": "1"])
            #expect(fake.connected == probe)
        }
        #expect((try await reg.provider(remote: "work", store: store, services: services) as? FakeProvider)?.connected == true)

        let noStore = try #require(try await reg.provider(remote: "work", store: nil, services: services) as? FakeProvider)
        #expect(noStore.configuration.credentials == .none)

        let missing = await #expect(throws: ProviderError.self) { try await reg.provider(remote: "nope", store: store, services: services) }
        #expect(missing?.code == .notFound)
        let orphan = await #expect(throws: ProviderError.self) { try await reg.provider(remote: "orphan", store: store, services: services) }
        #expect(orphan?.code == .unsupported)
    }

    @Test("detect asks every adapter and orders answers by confidence, then kind")
    func detect() async throws {
        let low = FakeFactory(kind: "webdav", schemes: ["webdav": "http"], confidence: 10)
        let high = FakeFactory(kind: "nextcloud", schemes: ["nextcloud": "https"], confidence: 90)
        let tieB = FakeFactory(kind: "beta", schemes: ["beta": "http"], confidence: 50)
        let tieA = FakeFactory(kind: "alpha", schemes: ["alpha": "http"], confidence: 50)
        let none = FakeFactory(kind: "pydio", schemes: ["pydio": "http"], confidence: nil)
        let reg = registry(low, high, tieB, none, tieA)
        let results = await reg.detect(url("http://127.0.0.1:8080/"), services: .transport(transport))
        #expect(results.map(\.kind) == ["nextcloud", "alpha", "beta", "webdav"])
        #expect(results.map(\.confidence) == [90, 50, 50, 10])
        for factory in [low, high, tieA, tieB, none] { #expect(factory.probed.value == 1) }
        #expect(transport.count == 0)
    }

    @Test("registering a factory again replaces it")
    func replace() throws {
        let reg = registry(FakeFactory(kind: "fake", schemes: ["fake": "http"]))
        reg.register(FakeFactory(kind: "fake", schemes: ["fake": "https"]))
        #expect(reg.kinds == ["fake"])
        #expect(try reg.route(url("fake://h/")).wireURL.scheme == "https")
    }
}

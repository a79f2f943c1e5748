import Foundation
import NIOCore
import ProviderAPI
import ProviderTesting
import StrataTestSupport
import Testing
import HTTPProviderKit

/// A provider that keeps its configuration and sends one `GET` of its root through its transport.
private struct TimedProvider: StubProvider {
    let configuration: ProviderConfiguration
    var capabilities: Capabilities { Capabilities(features: []) }
    var account: ProviderAccount { ProviderAccount(kind: "timed", server: configuration.url.absoluteString) }

    /// Sends `GET /` through an executor made from the configuration, as an HTTP adapter does.
    func ping(timeouts: Timeouts = Timeouts()) async throws -> Int {
        let executor = RequestExecutor(
            transport: configuration.transport, retry: configuration.retry, logger: configuration.logger, onRetry: configuration.onRetry)
        let response = try await executor.execute(TransportRequest(method: .GET, url: configuration.url, timeouts: timeouts))
        await response.body.discard()
        return response.status
    }

}

private struct TimedFactory: ProviderFactory {
    var kind: String { "timed" }
    var schemes: [String: String] { ["timed": "http"] }
    func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
        TimedProvider(configuration: configuration)
    }
}

@Suite("Timeouts: per provider, through the registry, on every request")
struct TimeoutsTests {
    static let timeouts = Timeouts(
        connect: .seconds(3), read: .milliseconds(1500), minimumSpeed: MinimumSpeed(bytesPerSecond: 10, window: .seconds(4)))
    static let retry = RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(1), maxDelay: .milliseconds(1))

    static func registry() -> ProviderRegistry {
        let registry = ProviderRegistry()
        registry.register(TimedFactory())
        return registry
    }

    @Test("unset values are the transport's own; set ones fill the gaps of another")
    func values() {
        #expect(Timeouts().isEmpty)
        #expect(Timeouts.transportDefaults.connect == nil && Timeouts.transportDefaults.read == nil)
        let own = Timeouts(read: .seconds(1))
        let filled = own.filling(from: Self.timeouts)
        #expect(filled.read == .seconds(1))
        #expect(filled.connect == .seconds(3))
        #expect(filled.minimumSpeed == Self.timeouts.minimumSpeed)
        #expect(!MinimumSpeed.off.isEnabled)
        #expect(MinimumSpeed.standard.isEnabled)
    }

    @Test("the HTTP transport's configuration takes the timeouts that are set; .off removes the minimum speed")
    func transportConfiguration() {
        let base = AsyncHTTPClientTransport.Configuration()
        #expect(base.applying(Timeouts()).connectTimeout == .seconds(10))
        let applied = base.applying(Self.timeouts)
        #expect(applied.connectTimeout == .seconds(3))
        #expect(applied.readTimeout == .milliseconds(1500))
        #expect(applied.minimumSpeed == MinimumSpeed(bytesPerSecond: 10, window: .seconds(4)))
        #expect(base.applying(Timeouts(minimumSpeed: .off)).minimumSpeed == nil)
    }

    @Test("every way the registry makes a provider passes its timeouts and retry policy to the requests it sends")
    func throughTheRegistry() async throws {
        let registry = Self.registry()
        registry.addRemote(SavedRemote(name: "work", kind: "timed", url: URL(string: "timed://127.0.0.1:9/")!))
        let url = URL(string: "timed://127.0.0.1:9/a")!
        let recorder = RecordingTransport { _ in (503, [], "") }
        var providers: [any StorageProvider] = []
        let services = ProviderServices.transport(recorder)
        for root in [ProviderRegistry.Root.url, .adapter] {
            for probe in [false, true] {
                providers.append(
                    try await registry.provider(
                        for: url, services: services, root: root, probe: probe, retry: Self.retry, timeouts: Self.timeouts
                    ).provider)
            }
        }
        for probe in [false, true] {
            providers.append(
                try await registry.provider(
                    remote: "work", store: nil, services: services, probe: probe, retry: Self.retry, timeouts: Self.timeouts))
        }
        for (index, provider) in providers.enumerated() {
            let timed = try #require(provider as? TimedProvider)
            #expect(timed.configuration.timeouts == Self.timeouts)
            #expect(timed.configuration.retry == Self.retry)
            #expect(try await timed.ping() == 503)
            // Two attempts each: the retry policy came through too.
            #expect(recorder.requests.count == 2 * (index + 1))
        }
        #expect(recorder.requests.allSatisfy { $0.timeouts == Self.timeouts })
    }

    @Test("a request's own timeouts win over the provider's, value by value")
    func requestWins() async throws {
        let recorder = RecordingTransport()
        let provider = try #require(
            try await Self.registry().provider(
                for: URL(string: "timed://127.0.0.1:9/")!, services: .transport(recorder), timeouts: Self.timeouts
            ).provider as? TimedProvider)
        #expect(try await provider.ping(timeouts: Timeouts(read: .seconds(60))) == 200)
        let sent = try #require(recorder.requests.first)
        #expect(sent.timeouts.read == .seconds(60))
        #expect(sent.timeouts.connect == .seconds(3))
    }

    @Test("without timeouts the configuration's transport is the one given, untouched")
    func noTimeouts() async throws {
        let recorder = RecordingTransport()
        let provider = try #require(
            try await Self.registry().provider(for: URL(string: "timed://127.0.0.1:9/")!, services: .transport(recorder)).provider
                as? TimedProvider)
        #expect(provider.configuration.transport as? RecordingTransport === recorder)
    }

    @Test("the HTTP transport applies a provider's read timeout to its requests", .timeLimit(.minutes(1)))
    func readTimeoutApplied() async throws {
        let server = try await LoopbackSocketServer.start(.silent)
        // The transport's own read timeout is 30 s; the provider's is 1 s.
        let transport = AsyncHTTPClientTransport()
        let configuration = ProviderConfiguration(
            url: server.url("/"), transport: transport, retry: .none, timeouts: Timeouts(read: .seconds(1)))
        let provider = TimedProvider(configuration: configuration)
        let error = await #expect(throws: ProviderError.self) { _ = try await provider.ping(timeouts: Timeouts()) }
        #expect(error?.code == .network)
        #expect(error?.message == "no data for 1 s")
        try await transport.shutdown()
        try await server.stop()
    }
}

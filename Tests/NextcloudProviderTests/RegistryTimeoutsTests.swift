import Foundation
import ProviderAPI
import ProviderTesting
import Testing
import WebDAVProvider
import HTTPProviderKit

/// The WebDAV adapter made by a registry sends every request with the timeouts and retry policy
/// the registry was given, and reads its string options into its typed configuration.
@Suite("WebDAV adapter: timeouts, retry and options through the registry")
struct RegistryTimeoutsTests {
    static let timeouts = Timeouts(connect: .seconds(4), read: .seconds(9), minimumSpeed: .off)
    static let retry = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), maxDelay: .milliseconds(1))

    static func registry() -> ProviderRegistry {
        let registry = ProviderRegistry()
        registry.register(WebDAVProviderFactory())
        registry.register(OwnCloudProviderFactory(flavor: .nextcloud))
        return registry
    }

    @Test("plain WebDAV and the Nextcloud dialect send with the registry's timeouts and retry policy", arguments: [
        "webdav://127.0.0.1:9/docs/a.txt", "nextcloud://127.0.0.1:9/docs/a.txt",
    ])
    func passedThrough(_ target: String) async throws {
        let recorder = RecordingTransport { _ in (503, [], "busy") }
        let (provider, path) = try await Self.registry().provider(
            for: URL(string: target)!, credentials: .basic(username: "ann", password: "pw"), services: .transport(recorder),
            probe: false, retry: Self.retry, timeouts: Self.timeouts)
        await #expect(throws: ProviderError.self) { _ = try await provider.item(at: path) }
        let sent = recorder.requests
        #expect(sent.count == 3, "three attempts of one PROPFIND")
        #expect(sent.allSatisfy { $0.method.rawValue == "PROPFIND" })
        #expect(sent.allSatisfy { $0.timeouts == Self.timeouts })
    }

    @Test("an adapter option is read into the typed configuration; an unknown one fails before any request")
    func options() async throws {
        let recorder = RecordingTransport()
        let registry = Self.registry()
        let (made, _) = try await registry.provider(
            for: URL(string: "nextcloud://127.0.0.1:9/")!, credentials: .basic(username: "ann", password: "pw"),
            options: ["chunkSize": "4096", "search": "false"], services: .transport(recorder), root: .url, probe: false)
        let dialect = try #require((made as? WebDAVProvider)?.dialect)
        #expect(dialect.chunkSize == 4096)
        #expect(dialect.features.search == false)
        let error = await #expect(throws: ProviderError.self) {
            _ = try await registry.provider(
                for: URL(string: "webdav://127.0.0.1:9/")!, options: ["chunksize": "1"], services: .transport(recorder))
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message?.contains("chunksize") == true)
        #expect(recorder.requests.isEmpty)
    }
}

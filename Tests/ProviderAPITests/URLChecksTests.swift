import Foundation
import ProviderAPI
import Testing

@Suite("URL port checks")
struct URLPortCheckTests {
    @Test("ports outside 1…65535 are refused wherever a URL comes in", arguments: [
        "webdav://127.0.0.1:70000/dav/a", "webdav://127.0.0.1:0/dav/a", "webdav://h:99999999999999999999999/a",
    ])
    func registryRefuses(_ text: String) throws {
        let registry = ProviderRegistry()
        registry.register(InMemoryFactoryStub())
        let error = #expect(throws: ProviderError.self) { _ = try registry.route(url(text)) }
        #expect(error?.code == .invalidArgument)
        #expect(URLChecks.hasValidPort(url(text)) == false)
    }

    @Test("a target with an unknown scheme is not echoed with its password")
    func unknownSchemeRedacted() {
        let registry = ProviderRegistry()
        let error = #expect(throws: ProviderError.self) { _ = try registry.route(url("ann:s3cret-pw@host")) }
        #expect(error?.code == .unsupported)
        #expect(error?.message == "no adapter is registered for the scheme 'ann'")
    }

    @Test("ordinary URLs pass", arguments: ["http://h/a", "https://h:443/a", "http://[::1]:8080/", "http://u:p@h:65535/", "http://h:1/"])
    func valid(_ text: String) {
        #expect(URLChecks.hasValidPort(url(text)))
        #expect(URLChecks.isValidHTTPURL(url(text)))
    }
}

/// A factory for the `webdav` scheme that makes nothing, to test routing alone.
private struct InMemoryFactoryStub: ProviderFactory {
    var kind: String { "stub" }
    var schemes: [String: String] { ["webdav": "http"] }
    func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
        throw ProviderError(.unsupported, "stub")
    }
}

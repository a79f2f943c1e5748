import Foundation
import ProviderAPI
import StrataTestSupport
import Testing

@testable import WebDAVProvider

@Suite("WebDAV typed configuration and its options")
struct WebDAVConfigurationTests {
    static let url = URL(string: "https://cloud.example.com/")!

    static func read(_ options: [String: String]) throws -> (ProviderConfiguration, WebDAVProvider.Configuration) {
        try WebDAVProvider.reading(ProviderConfiguration(url: url, options: options))
    }

    @Test("the defaults are those documented")
    func defaults() throws {
        let webdav = WebDAVProvider.Configuration()
        #expect(webdav.dialect == nil)
        #expect(webdav.user == nil)
        #expect(webdav.chunkSize == 10 << 20)
        #expect(webdav.chunkThreshold == nil)
        #expect(webdav.chunking == nil)
        #expect(webdav.search == nil)
        #expect(webdav.auth == .automatic)
        #expect(try Self.read([:]).1 == webdav)
    }

    @Test("auth is auto or digest; digest needs a user name and password")
    func auth() throws {
        #expect(try Self.read(["auth": "Digest"]).1.auth == .digest)
        #expect(try Self.read(["auth": "auto"]).1.auth == .automatic)
        let bogus = #expect(throws: ProviderError.self) { try Self.read(["auth": "ntlm"]) }
        #expect(bogus?.code == .invalidArgument)
        let token = #expect(throws: ProviderError.self) {
            try WebDAVProvider(configuration: ProviderConfiguration(url: Self.url, credentials: .token("t"), options: ["auth": "digest"]))
        }
        #expect(token?.code == .invalidArgument)
        #expect(token?.message?.contains("auth=digest") == true)
    }

    @Test("every option is read into its typed field")
    func options() throws {
        let (common, webdav) = try Self.read([
            "dialect": "OwnCloud", "user": "ann", "chunkSize": "1048576", "chunkThreshold": "2097152", "chunking": "off",
            "search": "on", "maxPages": "3",
        ])
        #expect(webdav.dialect == .owncloud)
        #expect(webdav.user == "ann")
        #expect(webdav.chunkSize == 1 << 20)
        #expect(webdav.chunkThreshold == 2 << 20)
        #expect(webdav.chunking == false)
        #expect(webdav.search == true)
        #expect(common.pageLimits.maxPages == 3)
        #expect(common.options.isEmpty)
    }

    @Test("a malformed value fails naming its option", arguments: [
        ("dialect", "sharepoint"), ("chunkSize", "0"), ("chunkThreshold", "-5"), ("chunking", "sometimes"), ("search", "2"),
        ("maxPages", "none"),
    ])
    func malformed(option: String, value: String) {
        expectInvalid(naming: option) { _ = try Self.read([option: value]) }
    }

    @Test("an unknown option fails naming it, through either factory")
    func unknown() {
        let configuration = ProviderConfiguration(
            url: Self.url, credentials: .basic(username: "ann", password: "pw"), options: ["chunk-size": "1"])
        expectInvalid(naming: "chunk-size") { _ = try WebDAVProviderFactory().makeProvider(configuration) }
        expectInvalid(naming: "chunk-size") { _ = try OwnCloudProviderFactory(flavor: .nextcloud).makeProvider(configuration) }
        expectInvalid(naming: "chunk-size") { _ = try WebDAVProvider(configuration: configuration) }
    }

    @Test("the dialect factory builds its dialect from the typed values")
    func dialect() throws {
        let configuration = ProviderConfiguration(
            url: Self.url, credentials: .basic(username: "ann", password: "pw"),
            options: ["dialect": "owncloud", "user": "bob", "chunkSize": "4096", "chunking": "false", "search": "true", "maxEntries": "12"])
        let provider = try #require(try OwnCloudProviderFactory(flavor: .nextcloud).makeProvider(configuration) as? WebDAVProvider)
        let dialect = try #require(provider.dialect)
        #expect(dialect.flavor == .owncloud)
        #expect(dialect.user == "bob")
        #expect(dialect.chunkSize == 4096)
        #expect(dialect.chunkThreshold == 4096)
        #expect(dialect.features.chunking == false)
        #expect(dialect.features.search == true)
        #expect(provider.pageLimits.maxEntries == 12)
        #expect(provider.mapper.root.absoluteString == "https://cloud.example.com/remote.php/dav/files/bob/")
    }
}

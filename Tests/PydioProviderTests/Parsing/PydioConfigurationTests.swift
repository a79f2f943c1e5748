import Foundation
import ProviderAPI
import StrataTestSupport
import Testing

@testable import PydioProvider

@Suite("Pydio typed configuration and its options")
struct PydioConfigurationTests {
    static let url = URL(string: "https://files.example.com/pydio/my-files/Reports")!

    static func read(_ options: [String: String]) throws -> (ProviderConfiguration, PydioProvider.Configuration) {
        try PydioProvider.reading(ProviderConfiguration(url: url, options: options))
    }

    @Test("the defaults are those documented")
    func defaults() throws {
        let pydio = PydioProvider.Configuration()
        #expect(pydio.basePath == nil)
        #expect(pydio.chunkSize == 4 << 20)
        #expect(pydio.showsRecycleBin == false)
        #expect(pydio.indexesContent == false)
        #expect(try Self.read([:]).1 == pydio)
    }

    @Test("every option is read into its typed field")
    func options() throws {
        let (common, pydio) = try Self.read([
            "basePath": "/", "chunkSize": "2048", "showRecycleBin": "yes", "indexesContent": "TRUE", "maxPages": "4",
        ])
        #expect(pydio.basePath == "/")
        #expect(pydio.chunkSize == 2048)
        #expect(pydio.showsRecycleBin)
        #expect(pydio.indexesContent)
        #expect(common.pageLimits.maxPages == 4)
        #expect(common.options.isEmpty)
        #expect(try Self.read(["showRecycleBin": "false", "indexesContent": "0"]).1 == PydioProvider.Configuration())
    }

    @Test("a malformed value fails naming its option", arguments: [
        ("chunkSize", "1000"), ("chunkSize", "4k"), ("showRecycleBin", "perhaps"), ("indexesContent", "2"), ("maxEntries", "-1"),
    ])
    func malformed(option: String, value: String) {
        expectInvalid(naming: option) { _ = try Self.read([option: value]) }
    }

    @Test("an unknown option fails naming it, through the factory as through the provider")
    func unknown() {
        let configuration = ProviderConfiguration(
            url: Self.url, credentials: .basic(username: "ann", password: "pw"), options: ["showRecycleBins": "true"])
        expectInvalid(naming: "showRecycleBins") { _ = try PydioProviderFactory().makeProvider(configuration) }
        expectInvalid(naming: "showRecycleBins") { _ = try PydioProvider(configuration: configuration) }
    }

    @Test("the typed initializer uses the typed values and leaves string options unread")
    func typed() throws {
        var pydio = PydioProvider.Configuration()
        pydio.indexesContent = true
        pydio.chunkSize = 10
        var common = ProviderConfiguration(
            url: URL(string: "https://h/ws/Reports")!, credentials: .basic(username: "ann", password: "pw"), options: ["chunkSize": "x"])
        common.pageLimits = PageLimits(maxEntries: 8)
        pydio.basePath = "/"
        let provider = try PydioProvider(configuration: common, pydio: pydio)
        #expect(provider.capabilities.features.contains(.fullTextSearch))
        #expect(provider.settings.chunkSize == 1024)
        #expect(provider.settings.workspace == "ws")
        #expect(provider.settings.rootPath == "/Reports")
        #expect(provider.pageLimits.maxEntries == 8)
    }
}

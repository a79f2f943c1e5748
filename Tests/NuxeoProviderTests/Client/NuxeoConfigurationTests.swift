import Foundation
import ProviderAPI
import StrataTestSupport
import Testing

@testable import NuxeoProvider

@Suite("Nuxeo typed configuration and its options")
struct NuxeoConfigurationTests {
    static let url = URL(string: "https://demo.example.com/nuxeo/default-domain/workspaces")!

    static func read(_ options: [String: String]) throws -> (ProviderConfiguration, NuxeoProvider.Configuration) {
        try NuxeoProvider.reading(ProviderConfiguration(url: url, options: options))
    }

    @Test("the defaults are those documented")
    func defaults() throws {
        let nuxeo = NuxeoProvider.Configuration()
        #expect(nuxeo.contextPath == nil)
        #expect(nuxeo.repository == "default")
        #expect(nuxeo.authentication == .basic)
        #expect(nuxeo.tokenApplication == "Strata")
        #expect(nuxeo.tokenDeviceId == nil)
        #expect(nuxeo.tokenDeviceDescription == nil)
        #expect(nuxeo.tokenPermission == "rw")
        #expect(nuxeo.schemas == ["*"])
        #expect(nuxeo.enrichers.isEmpty)
        #expect(nuxeo.chunkSize == 8 << 20)
        #expect(nuxeo.pageSize == 1000)
        #expect(nuxeo.deletion == .permanent)
        #expect(nuxeo.changeFeed == .auto)
        #expect(try Self.read([:]).1 == nuxeo)
    }

    @Test("every option is read into its typed field")
    func options() throws {
        let (common, nuxeo) = try Self.read([
            "contextPath": "/nuxeo", "repository": "archive", "auth": "Token", "application": "App", "deviceId": "d-1",
            "deviceDescription": "laptop", "permission": "r", "schemas": "dublincore, file", "enrichers": "thumbnail",
            "chunkSize": "4096", "pageSize": "50", "delete": "trash", "changes": "drive", "maxPages": "9", "maxEntries": "90",
        ])
        #expect(nuxeo.contextPath == "/nuxeo")
        #expect(nuxeo.repository == "archive")
        #expect(nuxeo.authentication == .token)
        #expect(nuxeo.tokenApplication == "App")
        #expect(nuxeo.tokenDeviceId == "d-1")
        #expect(nuxeo.tokenDeviceDescription == "laptop")
        #expect(nuxeo.tokenPermission == "r")
        #expect(nuxeo.schemas == ["dublincore", "file"])
        #expect(nuxeo.enrichers == ["thumbnail"])
        #expect(nuxeo.chunkSize == 4096)
        #expect(nuxeo.pageSize == 50)
        #expect(nuxeo.deletion == .trash)
        #expect(nuxeo.changeFeed == .drive)
        #expect(common.pageLimits == PageLimits(maxPages: 9, maxEntries: 90))
        #expect(common.options.isEmpty)
    }

    @Test("a malformed value fails naming its option", arguments: [
        ("auth", "cookie"), ("chunkSize", "12"), ("chunkSize", "big"), ("pageSize", "0"), ("delete", "shred"),
        ("changes", "sometimes"), ("maxPages", "0"), ("maxEntries", "x"),
    ])
    func malformed(option: String, value: String) {
        expectInvalid(naming: option) { _ = try Self.read([option: value]) }
    }

    @Test("an unknown option fails naming it, through the factory as through the provider")
    func unknown() {
        let configuration = ProviderConfiguration(url: Self.url, options: ["chunksize": "4096"])
        expectInvalid(naming: "chunksize") { _ = try NuxeoProviderFactory().makeProvider(configuration) }
        expectInvalid(naming: "chunksize") { _ = try NuxeoProvider(configuration: configuration) }
    }

    @Test("the typed initializer uses the typed values and leaves string options unread")
    func typed() throws {
        var nuxeo = NuxeoProvider.Configuration()
        nuxeo.authentication = .token
        nuxeo.deletion = .trash
        nuxeo.chunkSize = 12
        nuxeo.repository = "archive"
        var common = ProviderConfiguration(url: Self.url, credentials: .basic(username: "ann", password: "pw"), options: ["auth": "cookie"])
        common.pageLimits = PageLimits(maxPages: 5)
        let provider = try NuxeoProvider(configuration: common, nuxeo: nuxeo)
        #expect(provider.settings.usesTokenAuthentication)
        #expect(provider.settings.deleteMovesToTrash)
        #expect(provider.settings.chunkSize == 1024)
        #expect(provider.settings.defaults.repository == "archive")
        #expect(provider.pageLimits.maxPages == 5)
        #expect(provider.tokenAuthenticator != nil)
    }
}

import Foundation
import ProviderAPI
import Testing

@testable import StrataCLI

@Suite("strata login --oauth2: endpoints and client")
struct OAuth2LoginTests {
    @Test("Nextcloud and ownCloud: their oauth2 app's endpoints under the folder holding remote.php")
    func nextcloudEndpoints() throws {
        let url = URL(string: "https://cloud.example/nc/remote.php/dav/files/ann/")!
        for kind in ["nextcloud", "owncloud"] {
            let client = try OAuth2Login.client(url: url, kind: kind, options: ["oauth2.client-id": "strata"])
            #expect(client.authorizeURL?.absoluteString == "https://cloud.example/nc/index.php/apps/oauth2/authorize")
            #expect(client.tokenURL.absoluteString == "https://cloud.example/nc/index.php/apps/oauth2/api/v1/token")
            #expect(client.deviceURL == nil && client.clientSecret == nil)
        }
    }

    @Test("Nuxeo: oauth2/authorization and oauth2/token under the context path")
    func nuxeoEndpoints() throws {
        let client = try OAuth2Login.client(
            url: URL(string: "https://nx.example/nuxeo/api/v1/path/default-domain")!, kind: "nuxeo", options: ["oauth2.client-id": "c"])
        #expect(client.authorizeURL?.absoluteString == "https://nx.example/nuxeo/oauth2/authorization")
        #expect(client.tokenURL.absoluteString == "https://nx.example/nuxeo/oauth2/token")
    }

    @Test("options override the endpoints; the secret comes from a file; a client id is required")
    func options() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try "S3CRET\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let client = try OAuth2Login.client(
            url: URL(string: "https://dav.example/")!, kind: "webdav",
            options: [
                "oauth2.client-id": "c", "oauth2.token-url": "https://auth.example/token",
                "oauth2.authorize-url": "https://auth.example/authorize", "oauth2.device-url": "https://auth.example/device",
                "oauth2.client-secret-file": file.path,
            ])
        #expect(client.tokenURL.absoluteString == "https://auth.example/token")
        #expect(client.authorizeURL?.absoluteString == "https://auth.example/authorize")
        #expect(client.deviceURL?.absoluteString == "https://auth.example/device")
        #expect(client.clientSecret == "S3CRET")
        #expect(throws: (any Error).self) {
            try OAuth2Login.client(url: URL(string: "https://cloud.example/")!, kind: "nextcloud", options: [:])
        }
        #expect(throws: (any Error).self) {
            try OAuth2Login.client(url: URL(string: "https://dav.example/")!, kind: "webdav", options: ["oauth2.client-id": "c"])
        }
    }
}

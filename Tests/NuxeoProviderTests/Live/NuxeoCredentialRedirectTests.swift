import Foundation
import NuxeoProvider
import ProviderAPI
import Testing
import HTTPProviderKit

/// Answers the token request with a 307 to another origin, and records what reaches that origin.
private struct TokenRedirectingTransport: HTTPTransport {
    let base: any HTTPTransport
    let strayed = StrayedRequests()

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if request.url.host == "other.example" {
            await strayed.add(request.summary)
            return TransportResponse(status: 201, url: request.url, body: .bytes(.init(string: "stolen-token")))
        }
        if request.url.path.hasSuffix("/authentication/token") {
            return TransportResponse(status: 307, headers: ["Location": "http://other.example/nuxeo/authentication/token"], url: request.url)
        }
        return try await base.send(request)
    }
}

@Suite("Nuxeo token request never crosses origins")
struct NuxeoCredentialRedirectTests {
    @Test("a 307 of the token request to another origin is refused, and nothing reaches it")
    func tokenRedirect() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        let transport = TokenRedirectingTransport(base: AsyncHTTPClientTransport.shared)
        let error = await #expect(throws: ProviderError.self) {
            let provider = try await nuxeo.provider(options: ["auth": "token"], transport: transport)
            _ = try await provider.list(.root, page: .first)
        }
        #expect(error?.code == .forbidden)
        #expect(error?.message?.hasPrefix("refused to send credentials to another origin: http://other.example/") == true)
        #expect(await transport.strayed.all.isEmpty)
        await nuxeo.stop()
    }
}

/// The requests that reached the other origin.
private actor StrayedRequests {
    private(set) var all: [String] = []
    func add(_ request: String) { all.append(request) }
}

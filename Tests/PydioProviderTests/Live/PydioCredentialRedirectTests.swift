import Foundation
import NIOCore
import ProviderAPI
import PydioProvider
import Testing
import HTTPProviderKit

/// Answers the chosen Pydio actions with a 307 to another origin, and records what reaches that origin.
private struct RedirectingTransport: HTTPTransport {
    let base: any HTTPTransport
    let actions: Set<String>
    let strayed = StrayedRequests()

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if request.url.host == "other.example" {
            await strayed.add(request.summary)
            return TransportResponse(status: 200, url: request.url)
        }
        if actions.contains(Self.action(of: request)) {
            return TransportResponse(status: 307, headers: ["Location": "http://other.example:8443/index.php"], url: request.url)
        }
        return try await base.send(request)
    }

    static func action(of request: TransportRequest) -> String {
        var text = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        if case .bytes(let buffer) = request.body { text += "&" + String(buffer: buffer) }
        for pair in text.split(separator: "&") where pair.hasPrefix("get_action=") {
            return String(pair.dropFirst("get_action=".count))
        }
        return ""
    }
}

@Suite("Pydio login never crosses origins")
struct PydioCredentialRedirectTests {
    @Test("a 307 of the seed or login request to another origin is refused, and nothing reaches it", arguments: ["get_seed", "login"])
    func loginRedirect(_ action: String) async throws {
        let pydio = try await LoopbackPydio.start()
        let transport = RedirectingTransport(base: AsyncHTTPClientTransport.shared, actions: [action])
        let provider = try PydioProvider(configuration: pydio.configuration(transport: transport))
        let error = await #expect(throws: ProviderError.self) { _ = try await provider.list(.root, page: .first) }
        #expect(error?.code == .forbidden)
        #expect(error?.message?.hasPrefix("refused to send credentials to another origin: http://other.example:8443/") == true)
        #expect(await transport.strayed.all.isEmpty)
        await pydio.stop()
    }
}

/// The requests that reached the other origin.
private actor StrayedRequests {
    private(set) var all: [String] = []
    func add(_ request: String) { all.append(request) }
}

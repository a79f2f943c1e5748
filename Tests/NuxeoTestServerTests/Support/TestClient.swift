import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
@testable import NuxeoTestServer

/// A response as the tests see it.
struct TestResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    func json() throws -> NXJSON { try NXJSONParser.parse(body) }
}

/// How a test request authenticates.
enum TestAuth: Sendable {
    case none
    case basic(String, String)
    case token(String)
    case bearer(String)
}

/// A thin AsyncHTTPClient wrapper (redirects not followed) bound to one server.
final class TestClient: Sendable {
    let client: HTTPClient
    let base: String

    init(server: NuxeoTestServer) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        base = server.baseURL.absoluteString
    }

    func send(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: Data? = nil,
        auth: TestAuth = .basic("Administrator", "Administrator")
    ) async throws -> TestResponse {
        var request = HTTPClientRequest(url: path.hasPrefix("http") ? path : base + path)
        request.method = HTTPMethod(rawValue: method)
        switch auth {
        case .none: break
        case .basic(let user, let password):
            request.headers.add(name: "Authorization", value: "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        case .token(let token): request.headers.add(name: "X-Authentication-Token", value: token)
        case .bearer(let token): request.headers.add(name: "Authorization", value: "Bearer \(token)")
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        var collected = Data()
        if method != "HEAD" {
            for try await buffer in response.body { collected.append(contentsOf: buffer.readableBytesView) }
        }
        return TestResponse(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: collected)
    }

    /// POSTs/PUTs a JSON text body.
    func sendJSON(_ method: String, _ path: String, _ json: String, headers: [(String, String)] = []) async throws -> TestResponse {
        try await send(method, path, headers: [("Content-Type", "application/json")] + headers, body: Data(json.utf8))
    }

    func shutdown() async {
        try? await client.shutdown()
    }
}

/// Starts a server and a client, runs `body`, then stops both (also on failure).
func withServer(
    _ configure: (inout NuxeoTestServer.Configuration) -> Void = { _ in },
    _ body: (NuxeoTestServer, TestClient) async throws -> Void
) async throws {
    var configuration = NuxeoTestServer.Configuration()
    configure(&configuration)
    let server = try await NuxeoTestServer.start(configuration)
    let client = TestClient(server: server)
    do {
        try await body(server, client)
    } catch {
        await client.shutdown()
        await server.stop()
        throw error
    }
    await client.shutdown()
    await server.stop()
}

/// The workspace every test writes into.
let workspace = "/api/v1/path/default-domain/workspaces/strata"

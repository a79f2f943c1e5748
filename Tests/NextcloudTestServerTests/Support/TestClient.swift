import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
@testable import NextcloudTestServer

/// A response as the tests see it.
struct TestResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A client bound to one server, sending Basic auth for one user unless told otherwise.
struct DAVClient: Sendable {
    let client: HTTPClient
    let root: String
    var authorization: String?

    init(server: NextcloudTestServer, user: String = "alice", password: String = "secret") {
        client = HTTPClient.shared
        root = server.baseURL.absoluteString
        authorization = Self.basic(user, password)
    }

    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    func with(authorization: String?) -> DAVClient {
        var copy = self
        copy.authorization = authorization
        return copy
    }

    /// Sends a request to `path` (absolute URL, or a path on the server root).
    func send(_ method: String, _ path: String, headers: [(String, String)] = [], body: Data? = nil) async throws -> TestResponse {
        var request = HTTPClientRequest(url: path.hasPrefix("http") ? path : root + path)
        request.method = HTTPMethod(rawValue: method)
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        var collected = Data()
        for try await buffer in response.body { collected.append(contentsOf: buffer.readableBytesView) }
        return TestResponse(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: collected)
    }

    func send(_ method: String, _ path: String, headers: [(String, String)] = [], text: String) async throws -> TestResponse {
        try await send(method, path, headers: headers, body: Data(text.utf8))
    }

    /// An OCS call with `OCS-APIRequest: true`.
    func ocs(_ method: String, _ path: String, form: [(String, String)]? = nil, json: String? = nil, headers: [(String, String)] = []) async throws -> TestResponse {
        var all = [("OCS-APIRequest", "true")] + headers
        var body: Data?
        if let form {
            all.append(("Content-Type", "application/x-www-form-urlencoded"))
            body = Data(form.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&").utf8)
        } else if let json {
            all.append(("Content-Type", "application/json"))
            all.append(("Accept", "application/json"))
            body = Data(json.utf8)
        }
        return try await send(method, path, headers: all, body: body)
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// Starts a server, runs `body`, stops the server (also when `body` throws).
func withServer<T: Sendable>(
    _ configuration: NextcloudTestServer.Configuration = .init(),
    _ body: (NextcloudTestServer, DAVClient) async throws -> T
) async throws -> T {
    let server = try await NextcloudTestServer.start(configuration)
    let client = DAVClient(server: server, user: configuration.users.keys.sorted().first ?? "alice",
                           password: configuration.users[configuration.users.keys.sorted().first ?? "alice"] ?? "")
    do {
        let result = try await body(server, client)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

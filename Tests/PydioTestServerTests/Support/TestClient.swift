import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
@testable import PydioTestServer

/// A response as the tests see it.
struct TestResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    func headers(_ name: String) -> [String] {
        headers.filter { $0.0.caseInsensitiveCompare(name) == .orderedSame }.map(\.1)
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A client with its own cookie jar (`AjaXplorer`, `AjaXplorer-remember`),
/// sending the SDK's headers, bound to one server.
final class PydioClient: @unchecked Sendable {
    let client: HTTPClient
    let base: String
    let root: String
    private let lock = NSLock()
    private var jar: [String: String] = [:]
    /// The secure token of the last successful login.
    var token = ""
    var userAgent = "ajaxplorer-ios-client/1.0"

    init(server: PydioTestServer) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        base = server.baseURL.absoluteString
        root = "http://127.0.0.1:\(server.port)"
    }

    var cookies: [String: String] {
        lock.lock()
        defer { lock.unlock() }
        return jar
    }

    func setCookie(_ name: String, _ value: String?) {
        lock.lock()
        jar[name] = value
        lock.unlock()
    }

    /// Sends a request to `url` (absolute, or relative to the base URL).
    func send(
        _ method: String, _ url: String, headers: [(String, String)] = [], body: Data? = nil, contentType: String? = nil
    ) async throws -> TestResponse {
        var request = HTTPClientRequest(url: url.hasPrefix("http") ? url : base + url)
        request.method = HTTPMethod(rawValue: method)
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Ajxp-Force-Login", value: "true")
        let cookieHeader = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")
        if !cookieHeader.isEmpty { request.headers.add(name: "Cookie", value: cookieHeader) }
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        var collected = Data()
        for try await buffer in response.body { collected.append(contentsOf: buffer.readableBytesView) }
        for value in response.headers["Set-Cookie"] {
            let pair = value.split(separator: ";").first.map(String.init) ?? ""
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            setCookie(parts[0], parts[1] == "deleted" ? nil : parts[1])
        }
        return TestResponse(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: collected)
    }

    /// `GET index.php?<query>` (pairs percent-encoded here).
    func get(_ pairs: [(String, String)], headers: [(String, String)] = []) async throws -> TestResponse {
        try await send("GET", "index.php?" + Self.encode(pairs), headers: headers)
    }

    /// `POST index.php` with an urlencoded body.
    func post(_ pairs: [(String, String)], query: [(String, String)] = []) async throws -> TestResponse {
        let url = "index.php" + (query.isEmpty ? "" : "?" + Self.encode(query))
        return try await send("POST", url, body: Data(Self.encode(pairs).utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// `POST index.php?<query>` with a multipart body holding `userfile_0`.
    func upload(_ query: [(String, String)], filename: String, data: Data, field: String = "userfile_0") async throws -> TestResponse {
        let boundary = "----strata\(UUID().uuidString)"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(filename)\"\r\n".utf8)
        body += Data("Content-Type: application/octet-stream\r\n\r\n".utf8)
        body += data
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        return try await send("POST", "index.php?" + Self.encode(query), body: body,
                              contentType: "multipart/form-data; boundary=\(boundary)")
    }

    /// ping → get_seed → login; stores the token.
    @discardableResult
    func login(_ user: String = "admin", _ password: String = "admin", extra: [(String, String)] = []) async throws -> TestResponse {
        _ = try await get([("get_action", "ping")])
        _ = try await get([("get_action", "get_seed")])
        let response = try await post([("get_action", "login"), ("userid", user), ("password", password), ("login_seed", "-1")] + extra)
        if let token = Self.attribute("secure_token", in: response.text) { self.token = token }
        return response
    }

    /// A file action on workspace 1 with the token (GET).
    func action(
        _ name: String, _ pairs: [(String, String)] = [], workspace: String = "1", headers: [(String, String)] = []
    ) async throws -> TestResponse {
        try await get([("get_action", name), ("tmp_repository_id", workspace)] + pairs + [("secure_token", token)], headers: headers)
    }

    /// A file action on workspace 1 with the token (POST body).
    func postAction(_ name: String, _ pairs: [(String, String)] = [], workspace: String = "1") async throws -> TestResponse {
        try await post([("get_action", name), ("tmp_repository_id", workspace)] + pairs + [("secure_token", token)])
    }

    /// Uploads `data` into `dir` of workspace 1 (XHR flag set).
    func put(_ dir: String, _ name: String, _ data: Data, extra: [(String, String)] = []) async throws -> TestResponse {
        try await upload([("get_action", "upload"), ("tmp_repository_id", "1"), ("dir", dir), ("xhr_uploader", "true")]
            + extra + [("secure_token", token)], filename: name, data: data)
    }

    static func attribute(_ name: String, in text: String) -> String? {
        guard let range = text.range(of: " \(name)=\"") else { return nil }
        let rest = text[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    static func encode(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        func escape(_ text: String) -> String {
            text.unicodeScalars.map { scalar in
                scalar.isASCII && allowed.contains(scalar)
                    ? String(scalar) : String(scalar).utf8.map { String(format: "%%%02X", $0) }.joined()
            }.joined()
        }
        return pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    func shutdown() async {
        try? await client.shutdown()
    }
}

/// Starts a server and a client, runs `body`, then stops both (also on failure).
func withServer(
    _ configure: (inout PydioTestServer.Configuration) -> Void = { _ in },
    _ body: (PydioTestServer, PydioClient) async throws -> Void
) async throws {
    var configuration = PydioTestServer.Configuration()
    configure(&configuration)
    let server = try await PydioTestServer.start(configuration)
    let client = PydioClient(server: server)
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

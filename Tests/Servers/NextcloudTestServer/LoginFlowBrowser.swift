import Foundation
import HTTPProviderKit
import NIOCore
import NIOHTTP1

/// The user's browser in a Login Flow v2, for tests: opens the login URL a client printed, and
/// grants access by posting the page's form with the user's name and password, as a user does.
///
/// ```swift
/// let status = try await LoginFlowBrowser.grant(loginURL, user: "alice", password: "secret")   // 200
/// ```
public enum LoginFlowBrowser {
    /// Opens `loginURL` and posts its form (`user`, `password` and the page's hidden `stateToken`);
    /// returns the status of the answer (200 "Account connected"; 403 for an expired flow or a wrong
    /// password), or of the page when it has no form.
    public static func grant(
        _ loginURL: URL, user: String, password: String, transport: any HTTPTransport = AsyncHTTPClientTransport.shared
    ) async throws -> Int {
        let page = try await send(TransportRequest(method: .GET, url: loginURL), transport)
        guard page.status == 200, let state = field("stateToken", in: page.text) else { return page.status }
        let form = [("stateToken", state), ("user", user), ("password", password)]
            .map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let posted = try await send(
            TransportRequest(method: .POST, url: loginURL, headers: headers, body: .bytes(ByteBuffer(string: form))), transport)
        return posted.status
    }

    private static func send(_ request: TransportRequest, _ transport: any HTTPTransport) async throws -> (status: Int, text: String) {
        let response = try await transport.send(request)
        let body = try await response.body.collect(upTo: 1 << 20)
        return (response.status, String(decoding: body.readableBytesView, as: UTF8.self))
    }

    /// The value of the hidden input `name` in `html`.
    private static func field(_ name: String, in html: String) -> String? {
        guard let input = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[input.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

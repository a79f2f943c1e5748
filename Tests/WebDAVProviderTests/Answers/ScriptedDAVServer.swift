import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import WebDAVProvider
import HTTPProviderKit

/// A transport that answers each request from a script (the answers real servers were seen to
/// give), and remembers every request as `METHOD path`.
final class ScriptedDAVServer: HTTPTransport {
    /// One answer: status, headers and body.
    struct Answer: Sendable {
        var status: Int
        var headers: HTTPHeaders = [:]
        var body: String = ""
    }

    /// The requests seen so far, in order.
    actor Log {
        private(set) var requests: [String] = []
        func append(_ line: String) { requests.append(line) }
    }

    static let origin = "http://127.0.0.1:9"
    let log = Log()
    let script: @Sendable (_ method: String, _ path: String, _ headers: HTTPHeaders) -> Answer

    init(_ script: @escaping @Sendable (_ method: String, _ path: String, _ headers: HTTPHeaders) -> Answer) {
        self.script = script
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        // The path as sent, with its escapes and its trailing slash.
        let path = String(request.url.absoluteString.dropFirst(Self.origin.count))
        await log.append("\(request.method.rawValue) \(path)")
        let answer = script(request.method.rawValue, path, request.headers)
        return TransportResponse(status: answer.status, headers: answer.headers, url: request.url, body: .bytes(ByteBuffer(string: answer.body)))
    }

    /// The requests seen so far.
    var requests: [String] { get async { await log.requests } }

    /// A provider rooted at this server's `/`, with one attempt per request.
    func provider(profile: WebDAVServerProfile = .generic) throws -> WebDAVProvider {
        try WebDAVProvider(
            configuration: ProviderConfiguration(
                url: URL(string: Self.origin + "/")!, credentials: .basic(username: "u", password: "p"), transport: self,
                retry: RetryPolicy(maxAttempts: 1)),
            profile: profile)
    }

    /// A `Depth: 0` PROPFIND answer for a file or folder at `href`.
    static func stat(_ href: String, folder: Bool) -> Answer {
        let type = folder ? "<d:collection/>" : ""
        let size = folder ? "" : "<d:getcontentlength>1</d:getcontentlength>"
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:"><d:response><d:href>\(href)</d:href><d:propstat><d:prop>
            <d:resourcetype>\(type)</d:resourcetype>\(size)<d:getetag>"e1"</d:getetag>
            <d:getlastmodified>Tue, 24 Nov 2026 18:00:00 GMT</d:getlastmodified>
            </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>
            """
        return Answer(status: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], body: body)
    }

    /// A 207 answer to a write with one failed resource, as lighttpd sends it.
    static func failed(_ href: String, _ statusLine: String) -> Answer {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:multistatus xmlns:D="DAV:">
            <D:response>
            <D:href>\(href)</D:href>
            <D:status>HTTP/1.1 \(statusLine)</D:status>
            </D:response>
            </D:multistatus>
            """
        return Answer(status: 207, headers: ["Content-Type": "application/xml;charset=utf-8"], body: body)
    }

    static let notFound = Answer(status: 404, headers: ["Content-Type": "text/html"], body: "<html>404</html>")
}

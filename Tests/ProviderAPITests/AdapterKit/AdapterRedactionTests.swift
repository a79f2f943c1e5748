import Foundation
import HTTPProviderKit
import Logging
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderTesting
import Testing

// Written as an outside adapter author would: plain imports, public API only.

@Suite("Adapter kit: secret names an adapter declares")
struct AdapterRedactionTests {
    init() {
        // What the adapter's factory does once; names only this suite uses.
        Redactor.register(secretHeaders: ["X-Kit-Password"], queryNames: ["kitpw"], cookieNames: ["kit_sid"])
    }

    @Test("a declared header and query parameter are masked in the trace log lines")
    func traceLog() async throws {
        let records = LogRecords()
        var logger = Logger(label: "adapter") { _ in RecordingLogHandler(records) }
        logger.logLevel = .trace
        let executor = RequestExecutor(transport: RecordingTransport(), logger: logger)
        var headers = HTTPHeaders()
        headers.add(name: "X-Kit-Password", value: "h3ader-secret")
        _ = try await executor.execute(
            TransportRequest(method: .GET, url: URL(string: "https://files.example.com/list?kitpw=qu3ry-secret&dir=a")!, headers: headers))

        let logged = records.all.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(logged.contains("/list?kitpw=<redacted>&dir=a"), "\(logged)")
        #expect(logged.contains("X-Kit-Password: <redacted>"), "\(logged)")
        #expect(!logged.contains("h3ader-secret") && !logged.contains("qu3ry-secret"))
    }

    @Test("a declared header, query parameter and cookie are masked in an error's message and request")
    func errorMessage() async {
        let request = TransportRequest(
            method: .GET, url: URL(string: "https://files.example.com/app;kit_sid=c00kie/list?KITPW=qu3ry-secret")!)
        let body = "bad request: X-Kit-Password: h3ader-secret\nkitpw=qu3ry-secret; kit_sid=c00kie"
        let error = await ProviderError.http(
            TransportResponse(status: 400, url: request.url, body: .bytes(ByteBuffer(string: body))), request: request)
        let text = "\(error)"
        for secret in ["h3ader-secret", "qu3ry-secret", "c00kie"] { #expect(!text.contains(secret), "\(secret) in \(text)") }
        #expect(error.request == "GET /app;kit_sid=<redacted>/list?KITPW=<redacted>")
        #expect(Redactor.redact("login with kit_sid=c00kie") == "login with kit_sid=<redacted>")
    }

    @Test("a declared header is not sent on to another origin after a redirect")
    func strippedOnRedirect() async throws {
        let recorder = RecordingTransport { request in
            request.url.host == "files.example.com" ? (302, [("Location", "https://cdn.example.net/blob")], "") : (200, [], "")
        }
        var headers = HTTPHeaders()
        headers.add(name: "X-Kit-Password", value: "h3ader-secret")
        _ = try await RequestExecutor(transport: recorder).execute(
            TransportRequest(method: .GET, url: URL(string: "https://files.example.com/blob")!, headers: headers))
        #expect(recorder.requests.count == 2)
        #expect(recorder.requests.first?.headers.first(name: "x-kit-password") == "h3ader-secret")
        #expect(recorder.requests.last?.headers.first(name: "x-kit-password") == nil)
    }
}

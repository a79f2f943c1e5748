import Foundation
import HTTPProviderKit
import NIOCore
import NIOHTTP1
import ProviderAPI
import Testing

// Written as an outside adapter author would: plain imports, public API only.

@Suite("Adapter kit: ProviderError from a response")
struct ErrorFromResponseTests {
    private let request = TransportRequest(method: .POST, url: URL(string: "https://ann:pw@files.example.com/api/upload?token=T0K3N&x=1")!)

    private func response(_ status: Int, _ headers: HTTPHeaders = [:], body: String) -> TransportResponse {
        TransportResponse(status: status, headers: headers, url: request.url, body: .bytes(ByteBuffer(string: body)))
    }

    @Test("status, code, the request's summary with its secrets masked, and the body's text with its secrets masked")
    func statusSummaryAndExcerpt() async {
        let error = await ProviderError.http(
            response(403, ["Content-Type": "application/json"], body: "{\"error\": \"denied\",\n \"password\": \"hunter2\"}"), request: request)
        #expect(error.code == .forbidden)
        #expect(error.httpStatus == 403)
        #expect(error.request == "POST /api/upload?token=<redacted>&x=1")
        let message = error.message ?? ""
        #expect(message.hasPrefix("unexpected HTTP status 403: {\"error\": \"denied\", \"password\""), "one line: \(message)")
        #expect(!"\(error)".contains("hunter2") && !"\(error)".contains("T0K3N") && !"\(error)".contains("pw@"))
    }

    @Test("Retry-After in seconds and as an HTTP date is carried into the error the retries read")
    func retryAfter() async throws {
        let seconds = await ProviderError.http(response(429, ["Retry-After": "7"], body: ""), request: request)
        #expect(seconds.code == .rateLimited)
        #expect(seconds.retryAfter == .seconds(7))

        let inTwoMinutes = Date(timeIntervalSinceNow: 120)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let dated = await ProviderError.http(response(503, ["Retry-After": formatter.string(from: inTwoMinutes)], body: ""), request: request)
        let delay = try #require(dated.retryAfter)
        #expect(delay > .seconds(100) && delay <= .seconds(120), "\(delay)")
        #expect(dated.message == "unexpected HTTP status 503", "an empty body adds nothing")
    }

    @Test("the excerpt is bounded and never ends in a split character")
    func boundedExcerpt() async throws {
        // 511 ASCII bytes, then "é" (2 bytes) across the 512-byte limit, then more.
        let body = String(repeating: "a", count: 511) + "é" + String(repeating: "b", count: 5000)
        let error = await ProviderError.http(response(500, body: body), request: request, message: "the server failed")
        let message = try #require(error.message)
        #expect(message == "the server failed: " + String(repeating: "a", count: 511) + "…")
        #expect(!message.contains("\u{FFFD}"))

        let cutInside = String(repeating: "a", count: 510) + "€" + "tail"  // "€" is 3 bytes over 510…512
        let second = await ProviderError.http(response(500, body: cutInside), request: request)
        #expect(second.message == "unexpected HTTP status 500: " + String(repeating: "a", count: 510) + "…")
    }

    @Test("a binary body is not quoted; an adapter that read the body passes it")
    func binaryAndReadBody() {
        let binary = ProviderError.http(
            response(500, ["Content-Type": "application/octet-stream"], body: "\u{0}\u{1}"), body: ByteBuffer(string: "\u{0}\u{1}"),
            request: request)
        #expect(binary.message == "unexpected HTTP status 500")
        let read = ProviderError.http(response(404, body: ""), body: ByteBuffer(string: "no such file"), request: request)
        #expect(read.code == .notFound)
        #expect(read.message == "unexpected HTTP status 404: no such file")
    }
}

import Foundation
import NIOCore
import ProviderAPI
import Testing
import HTTPProviderKit

@Suite("Query.matches")
struct QueryTests {
    private let report = Item(
        path: "/Docs/Quarterly Report.PDF", kind: .file, size: 2048, modified: Date(timeIntervalSince1970: 1000),
        mimeType: "application/pdf")
    private let photo = Item(path: "/Photos/café.jpg", kind: .file, size: 10, mimeType: "image/jpeg; q=1")
    private let folder = Item(path: "/Docs", kind: .folder)

    @Test("name, kind and MIME type")
    func basics() {
        #expect(Query.nameContains("report").matches(report))
        #expect(!Query.nameContains("report").matches(photo))
        #expect(Query.nameContains("cafe").matches(photo), "diacritic-insensitive")
        #expect(Query.fullText("quarterly").matches(report))
        #expect(Query.kind(.folder).matches(folder))
        #expect(!Query.kind(.folder).matches(report))
        #expect(Query.mimeType("application/pdf").matches(report))
        #expect(Query.mimeType("image/*").matches(photo))
        #expect(Query.mimeType("IMAGE/JPEG").matches(photo), "parameters and case are ignored")
        #expect(!Query.mimeType("image/*").matches(report))
        #expect(!Query.mimeType("text/plain").matches(folder))
    }

    @Test("ranges, folders and combinations")
    func combinations() {
        #expect(Query.size(min: 1024, max: nil).matches(report))
        #expect(!Query.size(min: nil, max: 2047).matches(report))
        #expect(Query.size(min: 2048, max: 2048).matches(report))
        #expect(!Query.size(min: 0, max: nil).matches(folder), "no size, no match")
        #expect(Query.modified(after: Date(timeIntervalSince1970: 1000), before: nil).matches(report))
        #expect(!Query.modified(after: nil, before: Date(timeIntervalSince1970: 1000)).matches(report), "before is exclusive")
        #expect(!Query.modified(after: nil, before: nil).matches(photo))
        #expect(Query.under("/Docs").matches(report))
        #expect(!Query.under("/Docs").matches(folder), "a folder is not under itself")
        #expect(Query.under(.root).matches(folder))
        #expect(Query.and([.kind(.file), .nameContains("report")]).matches(report))
        #expect(!Query.and([.kind(.file), .nameContains("photo")]).matches(report))
        #expect(Query.or([.kind(.folder), .mimeType("image/*")]).matches(photo))
        #expect(Query.not(.kind(.file)).matches(folder))
        #expect(Query.and([]).matches(report))
        #expect(!Query.or([]).matches(report))
        #expect(!Query.native("SELECT * FROM Document").matches(report))
    }
}

@Suite("RetryPolicy")
struct RetryPolicyTests {
    @Test("delays grow exponentially with full jitter, within bounds")
    func bounds() {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        for retry in 1...8 {
            let ceiling = min(Duration.seconds(1), .milliseconds(100) * (1 << (retry - 1)))
            for _ in 0..<200 {
                let delay = policy.delay(forRetry: retry)
                #expect(delay >= ceiling / 2 && delay <= ceiling, "retry \(retry): \(delay) outside \(ceiling / 2)...\(ceiling)")
            }
        }
    }

    @Test("huge retry numbers and zero delays stay bounded")
    func extremes() {
        let policy = RetryPolicy(baseDelay: .milliseconds(200), maxDelay: .seconds(10))
        for retry in [0, -3, 31, 64, 1000, Int.max] {
            let delay = policy.delay(forRetry: retry)
            #expect(delay > .zero && delay <= .seconds(10), "retry \(retry): \(delay)")
        }
        let zero = RetryPolicy(baseDelay: .zero, maxDelay: .zero)
        #expect(zero.delay(forRetry: 1) <= .nanoseconds(1))
    }

    @Test("at least one attempt; presets")
    func attempts() {
        #expect(RetryPolicy(maxAttempts: 0).maxAttempts == 1)
        #expect(RetryPolicy(maxAttempts: -5).maxAttempts == 1)
        #expect(RetryPolicy.none.maxAttempts == 1)
        #expect(RetryPolicy.standard.maxAttempts == 4)
        #expect(RetryPolicy.standard.maxRetryAfter == .seconds(60))
    }
}

@Suite("ProviderError")
struct ProviderErrorTests {
    @Test("codes describe themselves and compare by name")
    func codes() {
        #expect(ProviderError.Code.notFound.description == "notFound")
        #expect(ProviderError.Code.rateLimited.description == "rateLimited")
        #expect(ProviderError.Code.invalidResponse != .invalidArgument)
        #expect(ProviderError(.notFound).code == .notFound)
    }

    @Test("description carries code, status, request, message and cause")
    func description() {
        let error = ProviderError(.notFound, "no such file", httpStatus: 404, request: "GET /a", underlying: "cause")
        #expect(error.description == "notFound HTTP 404 GET /a: no such file (cause)")
        #expect(ProviderError(.network).description == "network")
        #expect(ProviderError(.server, "", httpStatus: 500).description == "server HTTP 500")
    }

    @Test("wrap: cancellation, ProviderError and anything else")
    func wrap() {
        #expect(ProviderError.wrap(CancellationError()).code == .cancelled)
        #expect(ProviderError.wrap(CancellationError(), request: "GET /x").request == "GET /x")
        let original = ProviderError(.conflict, "locked")
        let wrapped = ProviderError.wrap(original, request: "PUT /f")
        #expect(wrapped.code == .conflict)
        #expect(wrapped.message == "locked")
        #expect(wrapped.request == "PUT /f")
        #expect(ProviderError.wrap(ProviderError(.conflict, request: "MOVE /a"), request: "PUT /f").request == "MOVE /a")

        struct Odd: Error, CustomStringConvertible { var description: String { "failed at https://ann:hunter2@h/x?token=abc" } }
        let other = ProviderError.wrap(Odd())
        #expect(other.code == .unknown)
        #expect(!(other.underlying ?? "").contains("hunter2"))
        #expect(!(other.underlying ?? "").contains("abc"))
        #expect(!other.description.contains("hunter2"))
        #expect(ProviderError.wrap(Odd(), fallback: .invalidResponse).code == .invalidResponse)
    }

    @Test("HTTP statuses map to codes")
    func statuses() {
        let expected: [Int: ProviderError.Code] = [
            401: .unauthorized, 403: .forbidden, 404: .notFound, 410: .notFound, 409: .conflict, 423: .conflict,
            412: .preconditionFailed, 413: .quotaExceeded, 507: .quotaExceeded, 429: .rateLimited, 500: .server, 400: .server,
        ]
        for (status, code) in expected { #expect(ProviderError.code(forHTTPStatus: status) == code, "\(status)") }
        let throttled = ProviderError.http(status: 429, request: "GET /", retryAfter: .seconds(5))
        #expect(throttled.code == .rateLimited)
        #expect(throttled.retryAfter == .seconds(5))
        #expect(throttled.httpStatus == 429)
        #expect(ProviderError.unsupported("search").code == .unsupported)
    }
}

@Suite("TransportResponse")
struct HTTPResponseTests {
    private func response(_ headers: [(String, String)]) -> TransportResponse {
        var response = TransportResponse(status: 503, url: url("http://h/"))
        for (name, value) in headers { response.headers.add(name: name, value: value) }
        return response
    }

    @Test("Retry-After in seconds or as a date")
    func retryAfter() {
        #expect(response([("Retry-After", "0")]).retryAfter == .zero)
        #expect(response([("Retry-After", " 120 ")]).retryAfter == .seconds(120))
        #expect(response([("Retry-After", "-5")]).retryAfter == .zero)
        #expect(response([("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT")]).retryAfter == .zero, "a past date means now")
        #expect(response([("Retry-After", "soon")]).retryAfter == nil)
        #expect(response([]).retryAfter == nil)
    }

    @Test("Content-Length and ETag")
    func headers() {
        #expect(response([("Content-Length", "42")]).contentLength == 42)
        #expect(response([("Content-Length", "x")]).contentLength == nil)
        #expect(response([("ETag", "W/\"a\"")]).etag == "W/\"a\"")
        #expect(response([]).isSuccess == false)
    }

    @Test("collect refuses a body over its limit")
    func collect() async throws {
        let body = HTTPResponseBody.bytes(ByteBuffer(string: "0123456789"))
        let error = await #expect(throws: ProviderError.self) { try await body.collect(upTo: 5) }
        #expect(error?.code == .invalidResponse)
        #expect(String(buffer: try await HTTPResponseBody.bytes(ByteBuffer(string: "abc")).collect(upTo: 3)) == "abc")
    }
}

@Suite("PageRequest fields")
struct PageRequestFieldsTests {
    @Test("a request encoded before fields existed asks for every field; fields survive a round trip")
    func decoding() throws {
        let old = try JSONDecoder().decode(PageRequest.self, from: Data(#"{"limit":5,"sort":[]}"#.utf8))
        #expect(old.fields == .all)
        #expect(old.limit == 5)
        let lean = PageRequest(limit: 2, fields: [])
        let again = try JSONDecoder().decode(PageRequest.self, from: JSONEncoder().encode(lean))
        #expect(again == lean)
        #expect(!again.fields.contains(.mimeType))
        #expect(ItemFields.all.contains(.mimeType))
    }
}

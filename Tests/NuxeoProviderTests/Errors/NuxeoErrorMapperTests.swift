import Foundation
import ProviderAPI
import Testing
@testable import NuxeoProvider

@Suite("Nuxeo error mapping") struct NuxeoErrorMapperTests {
    static func body(_ status: Int, _ message: String, extra: String = "") -> Data {
        Data(#"{"entity-type":"exception","status":\#(status),"message":"\#(message)"\#(extra)}"#.utf8)
    }

    @Test("a 401 with the servlet container's HTML page is unauthorized, the HTML not echoed")
    func html401() {
        let html = Data("<html><head><title>Apache Tomcat - Error report</title></head><body><h1>HTTP Status 401 - </h1>secret=abc</body></html>".utf8)
        let error = NuxeoErrorMapper.error(status: 401, body: html, request: "GET /api/v1/me")
        #expect(error.code == .unauthorized)
        #expect(error.httpStatus == 401)
        #expect(error.message == "the server refused the credentials")
        #expect(!error.description.contains("Tomcat"))
        #expect(NuxeoErrorMapper.error(status: 401, body: nil).code == .unauthorized)
    }

    static let cases: [(Int, Data, ProviderError.Code, String)] = [
        (404, Self.body(404, "Failed to get document /wrongID"), ProviderError.Code.notFound, "Failed to get document /wrongID"),
        (403, Self.body(403, "Privilege 'Write' is not granted to 'jdoe'"), .forbidden, "Privilege 'Write' is not granted to 'jdoe'"),
        (409, Self.body(409, "3dd87292-1345-4ad8-acb5-4e74c26bf893"), .conflict,
         "the document 3dd87292-1345-4ad8-acb5-4e74c26bf893 was changed by someone else (stale change token)"),
        (400, Self.body(400, "Type: Foo does not exist"), .invalidArgument, "Type: Foo does not exist"),
        (400, Self.body(400, "Invalid changeToken 9999-1234"), .conflict, "Invalid changeToken 9999-1234"),
        (412, Data(), .preconditionFailed, "the precondition failed"),
        (500, Self.body(500, "Failed to get document x", extra: #","code":"org.nuxeo.ecm.core.api.DocumentNotFoundException""#), .notFound, "Failed to get document x"),
        (500, Self.body(500, "conflict", extra: #","exception":{"className":"org.nuxeo.ecm.core.api.ConcurrentUpdateException"}"#), .conflict, "conflict"),
        (500, Self.body(500, "Internal Server Error"), .server, "Internal Server Error"),
        (413, Data(), .quotaExceeded, "unexpected HTTP status 413"),
        (404, Data("not json".utf8), .notFound, "no such document"),
        ]

    @Test("statuses and exception bodies map to codes", arguments: cases)
    func mapping(status: Int, body: Data, code: ProviderError.Code, message: String) {
        let error = NuxeoErrorMapper.error(status: status, body: body)
        #expect(error.code == code)
        #expect(error.httpStatus == status)
        #expect(error.message == message)
    }

    @Test("429 and 503 keep Retry-After; other codes drop it")
    func retryAfter() {
        #expect(NuxeoErrorMapper.error(status: 429, body: nil, retryAfter: .seconds(7)).code == .rateLimited)
        #expect(NuxeoErrorMapper.error(status: 429, body: nil, retryAfter: .seconds(7)).retryAfter == .seconds(7))
        let unavailable = NuxeoErrorMapper.error(status: 503, body: nil, retryAfter: .seconds(3))
        #expect(unavailable.code == .server)
        #expect(unavailable.retryAfter == .seconds(3))
        #expect(NuxeoErrorMapper.error(status: 404, body: nil, retryAfter: .seconds(3)).retryAfter == nil)
    }

    @Test("messages are redacted and flattened; stack traces never copied")
    func redaction() {
        let body = Self.body(
            500, #"fetch https://admin:hunter2@example.com/x?token=abc failed\nAuthorization: Basic YWRtaW46aHVudGVyMg=="#,
            extra: #","stacktrace":"java.lang.Exception: hunter2\n\tat Foo.java""#)
        let error = NuxeoErrorMapper.error(status: 500, body: body)
        let text = error.description
        #expect(!text.contains("hunter2"))
        #expect(!text.contains("YWRtaW46aHVudGVyMg"))
        #expect(!text.contains("token=abc"))
        #expect(!text.contains("\n"))
        #expect(!text.contains("Foo.java"))
        let withRequest = NuxeoErrorMapper.error(status: 404, body: nil, request: "GET https://bob:pw@host/api/v1/path/x?token=s3cret")
        #expect(!(withRequest.request ?? "").contains("pw@"))
        #expect(!(withRequest.request ?? "").contains("s3cret"))
    }

    @Test("an exception entity is found only in JSON exception bodies")
    func exceptionDetection() {
        #expect(NuxeoErrorMapper.exceptionEntity(in: Self.body(404, "x"))?.status == 404)
        #expect(NuxeoErrorMapper.exceptionEntity(in: Data("  \n".utf8) + Self.body(404, "x"))?.message == "x")
        #expect(NuxeoErrorMapper.exceptionEntity(in: Data(#"{"entity-type":"document","uid":"x"}"#.utf8)) == nil)
        #expect(NuxeoErrorMapper.exceptionEntity(in: Data("[1]".utf8)) == nil)
        #expect(NuxeoErrorMapper.exceptionEntity(in: Data(String(repeating: "{", count: 10_000).utf8)) == nil)
    }
}

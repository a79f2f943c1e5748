import Foundation
import NIOCore
import ProviderAPI
import Testing
import WebDAVProvider
import HTTPProviderKit

/// Answers every request with one status and body.
private struct FixedAnswerTransport: HTTPTransport {
    let status: Int
    let body: String

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        TransportResponse(
            status: status, headers: ["Content-Type": "application/xml; charset=utf-8"], url: request.url,
            body: .bytes(ByteBuffer(string: body)))
    }
}

@Suite("WebDAV error messages from server bodies are redacted")
struct DAVErrorRedactionTests {
    static let secret = "dXNlcjpwYXNz"

    @Test("a DAV error body quoting the Authorization header back is not repeated", arguments: [
        "Authorization: Basic dXNlcjpwYXNz", "the request carried authorization: basic dXNlcjpwYXNz and was refused",
        "token dXNlcjpwYXNz?password=dXNlcjpwYXNz",
    ])
    func quotedAuthorization(_ message: String) async throws {
        let body = #"<?xml version="1.0" encoding="utf-8"?><d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns">"#
            + "<s:exception>Sabre\\DAV\\Exception\\Forbidden</s:exception><s:message>\(message)</s:message></d:error>"
        let provider = try WebDAVProvider(configuration: ProviderConfiguration(
            url: URL(string: "http://127.0.0.1:9/dav/")!, credentials: .basic(username: "user", password: "pass"),
            transport: FixedAnswerTransport(status: 403, body: body), retry: RetryPolicy(maxAttempts: 1)))
        do {
            _ = try await provider.item(at: "/a.txt")
            Issue.record("no error")
        } catch let error as ProviderError {
            #expect(error.code == .forbidden, "\(error)")
            #expect(!error.description.contains("password=dXNlcjpwYXNz") && !error.description.contains("Basic dXNlcjpwYXNz")
                && !error.description.lowercased().contains("basic dxnlcjpwyxnz"), "\(error)")
            #expect(error.description.contains(Redactor.mask), "\(error)")
        }
    }
}

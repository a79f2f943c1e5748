import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI
import Testing
import HTTPProviderKit

private let base = url("http://127.0.0.1:8080/dav/")

private func executor(
    _ transport: any HTTPTransport, retry: RetryPolicy = fastRetry, onRetry: (@Sendable (RetryNotice) -> Void)? = nil
) -> RequestExecutor {
    RequestExecutor(transport: transport, retry: retry, logger: quietLogger, onRetry: onRetry)
}

/// A transport whose answers come from a function, for bodies a script cannot describe.
private struct FunctionTransport: HTTPTransport {
    let answer: @Sendable (TransportRequest) async throws -> TransportResponse
    func send(_ request: TransportRequest) async throws -> TransportResponse { try await answer(request) }
}

@Suite("RequestExecutor redirect safety")
struct RedirectSafetyTests {
    @Test("a request carrying credentials is never sent to another origin", arguments: [301, 302, 303, 307, 308])
    func credentialsStay(_ status: Int) async throws {
        let transport = ScriptedTransport([.status(status, [("Location", "https://other:8443/steal?token=abc")]), .status(200)])
        var request = TransportRequest(
            method: .POST, url: url("https://pydio.example/index.php"), body: .bytes(ByteBuffer(string: "userid=u&password=p")))
        request.carriesCredentials = true
        let error = await #expect(throws: ProviderError.self) { try await executor(transport).execute(request) }
        #expect(error?.code == .forbidden)
        #expect(error?.message?.hasPrefix("refused to send credentials to another origin: https://other:8443/steal") == true)
        #expect(error?.message?.contains("abc") == false)
        #expect(transport.count == 1)
    }

    @Test("a request carrying credentials still follows a redirect on its own origin")
    func credentialsSameOrigin() async throws {
        let transport = ScriptedTransport([.status(307, [("Location", "/index.php?x=1")]), .status(200)])
        let request = TransportRequest(
            method: .POST, url: url("https://pydio.example/index.php"), body: .bytes(ByteBuffer(string: "password=p")),
            carriesCredentials: true)
        #expect(try await executor(transport).execute(request).status == 200)
        #expect(transport.requests.map(\.body) == [Array("password=p".utf8), Array("password=p".utf8)])
    }

    @Test("an upload body is not replayed to another origin", arguments: [307, 308])
    func uploadStays(_ status: Int) async throws {
        let transport = ScriptedTransport([.status(status, [("Location", "http://other.example/dav/f")]), .status(201)])
        let request = TransportRequest(method: .PUT, url: base.appendingPathComponent("f"), body: .source(DataSource(string: "file content")))
        let error = await #expect(throws: ProviderError.self) { try await executor(transport).execute(request) }
        #expect(error?.code == .forbidden)
        #expect(error?.message == "refused to send the request body to another origin: http://other.example/dav/f")
        #expect(transport.count == 1)
    }

    @Test("a POST turned into a GET by 303 may go to another origin, without its body")
    func seeOtherAcrossOrigins() async throws {
        let transport = ScriptedTransport([.status(303, [("Location", "http://other.example/done")]), .status(200)])
        let request = TransportRequest(method: .POST, url: base, body: .bytes(ByteBuffer(string: "form")))
        #expect(try await executor(transport).execute(request).status == 200)
        #expect(transport.requests[1].method == "GET")
        #expect(transport.requests[1].body == nil)
    }

    @Test("a Location with a bad port, scheme or host is an invalid response", arguments: [
        "http://127.0.0.1:99999/x", "http://127.0.0.1:0/x", "http://h:99999999999999999999999/x", "//evil:70000/x",
        "ftp://h/x", "http:///x", "http://:80/x",
    ])
    func badLocation(_ location: String) async throws {
        let transport = ScriptedTransport([.status(302, [("Location", location)]), .status(200)])
        let error = await #expect(throws: ProviderError.self) { try await executor(transport).execute(TransportRequest(method: .GET, url: base)) }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message == "redirect to an invalid location")
        #expect(transport.count == 1)
    }

    @Test("a redirect's endless body is read no further than 64 KiB")
    func endlessBodyLimit() async throws {
        let served = NIOLockedValueBox(0)
        let count = Counter()
        let transport = FunctionTransport { request in
            if count.increment() == 1 {
                let body = HTTPResponseBody(next: {
                    served.withLockedValue { $0 += 16 << 10 }
                    return ByteBuffer(repeating: 0x78, count: 16 << 10)
                })
                return TransportResponse(status: 302, headers: ["Location": "/next"], url: request.url, body: body)
            }
            return TransportResponse(status: 200, url: request.url)
        }
        let response = try await executor(transport).execute(TransportRequest(method: .GET, url: base))
        #expect(response.status == 200)
        #expect(served.withLockedValue { $0 } <= (64 << 10) + (16 << 10))
    }

    @Test("a redirect's body that stalls is abandoned after 2 s", .timeLimit(.minutes(1)))
    func stalledBody() async throws {
        let count = Counter()
        let transport = FunctionTransport { request in
            if count.increment() == 1 {
                let body = HTTPResponseBody(next: {
                    try await Task.sleep(for: .seconds(3600))
                    return nil
                })
                return TransportResponse(status: 302, headers: ["Location": "/next"], url: request.url, body: body)
            }
            return TransportResponse(status: 200, url: request.url)
        }
        #expect(try await executor(transport).execute(TransportRequest(method: .GET, url: base)).status == 200)
    }

    @Test("Pydio-style login requests and Nuxeo's token template carry credentials")
    func templateFlag() throws {
        let json = #"{"name": "tokenAcquire", "path": "/authentication/token", "carriesCredentials": true}"#
        let template = try JSONDecoder().decode(RequestTemplate.self, from: Data(json.utf8))
        #expect(template.carriesCredentials)
        let request = try template.makeRequest(baseURL: url("http://nuxeo.example/nuxeo/"), arguments: .none)
        #expect(request.carriesCredentials)
        #expect(TransportRequest(method: .GET, url: base).carriesCredentials == false)
    }
}


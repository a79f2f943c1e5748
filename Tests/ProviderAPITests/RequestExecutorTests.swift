import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import Testing
import HTTPProviderKit

private let base = url("http://127.0.0.1:8080/dav/")

private func executor(
    _ transport: ScriptedTransport, auth: any Authenticator = NoAuthenticator(), retry: RetryPolicy = fastRetry,
    maxRedirects: Int = 8
) -> RequestExecutor {
    RequestExecutor(transport: transport, authenticator: auth, retry: retry, maxRedirects: maxRedirects, logger: quietLogger)
}

@Suite("RequestExecutor")
struct RequestExecutorTests {
    // MARK: Retries

    @Test("a connection failure is retried for GET")
    func retriesGET() async throws {
        let transport = ScriptedTransport([.connectionReset, .connectionReset, .status(200, body: "ok")])
        let response = try await executor(transport).execute(TransportRequest(method: .GET, url: base))
        #expect(response.status == 200)
        #expect(transport.count == 3)
        #expect(String(buffer: try await response.body.collect(upTo: 100)) == "ok")
    }

    @Test("a connection failure is not retried for POST")
    func noRetryPOST() async throws {
        let transport = ScriptedTransport([.connectionRefused, .status(200)])
        let request = TransportRequest(method: .POST, url: base, body: .bytes(ByteBuffer(string: "x")))
        let error = await #expect(throws: ProviderError.self) { try await executor(transport).execute(request) }
        #expect(error?.code == .network)
        #expect(transport.count == 1)
    }

    @Test("a POST marked idempotent is retried")
    func idempotentPOST() async throws {
        let transport = ScriptedTransport([.connectionRefused, .status(201)])
        let request = TransportRequest(method: .POST, url: base, body: .bytes(ByteBuffer(string: "x")), isIdempotent: true)
        let response = try await executor(transport).execute(request)
        #expect(response.status == 201)
        #expect(transport.requests.map(\.body) == [Array("x".utf8), Array("x".utf8)])
    }

    @Test("connection failures stop after maxAttempts")
    func connectionMaxAttempts() async throws {
        let transport = ScriptedTransport([], fallback: .connectionReset)
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), maxDelay: .milliseconds(1))
        let error = await #expect(throws: ProviderError.self) {
            try await executor(transport, retry: policy).execute(TransportRequest(method: .GET, url: base))
        }
        #expect(error?.code == .network)
        #expect(transport.count == 3)
    }

    @Test("503 with Retry-After: 0 then 200 succeeds after two requests")
    func retryAfterZero() async throws {
        let transport = ScriptedTransport([.status(503, [("Retry-After", "0")], body: "busy"), .status(200, body: "done")])
        let response = try await executor(transport).execute(TransportRequest(method: .PROPFIND, url: base))
        #expect(response.status == 200)
        #expect(transport.count == 2)
        #expect(String(buffer: try await response.body.collect(upTo: 100)) == "done")
    }

    @Test("429 is retried even for POST, because the server did not act on it")
    func throttledPOST() async throws {
        let transport = ScriptedTransport([.status(429, [("Retry-After", "0")]), .status(200)])
        let request = TransportRequest(method: .POST, url: base, body: .bytes(ByteBuffer(string: "form")))
        #expect(try await executor(transport).execute(request).status == 200)
        #expect(transport.count == 2)
    }

    @Test("429 with a Retry-After longer than maxRetryAfter is returned at once", .timeLimit(.minutes(1)))
    func longRetryAfter() async throws {
        let transport = ScriptedTransport([.status(429, [("Retry-After", "3600")]), .status(200)])
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(1), maxDelay: .milliseconds(1), maxRetryAfter: .seconds(2))
        let response = try await executor(transport, retry: policy).execute(TransportRequest(method: .GET, url: base))
        #expect(response.status == 429)
        #expect(response.retryAfter == .seconds(3600))
        #expect(transport.count == 1)
        #expect(transport.remainingSteps == 1)
    }

    @Test("a throttled answer is returned after maxAttempts")
    func throttledMaxAttempts() async throws {
        let transport = ScriptedTransport([], fallback: .status(503, [("Retry-After", "0")]))
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), maxDelay: .milliseconds(1))
        let response = try await executor(transport, retry: policy).execute(TransportRequest(method: .GET, url: base))
        #expect(response.status == 503)
        #expect(transport.count == 3)
    }

    @Test("RetryPolicy.none sends exactly once")
    func noRetries() async throws {
        let transport = ScriptedTransport([.status(503, [("Retry-After", "0")]), .status(200)])
        let response = try await executor(transport, retry: .none).execute(TransportRequest(method: .GET, url: base))
        #expect(response.status == 503)
        #expect(transport.count == 1)
    }

    @Test("502 and 504 are retried for idempotent requests only")
    func gateway() async throws {
        let getTransport = ScriptedTransport([.status(502), .status(504), .status(200)])
        #expect(try await executor(getTransport).execute(TransportRequest(method: .GET, url: base)).status == 200)
        #expect(getTransport.count == 3)

        let postTransport = ScriptedTransport([.status(502), .status(200)])
        let post = TransportRequest(method: .POST, url: base, body: .bytes(ByteBuffer(string: "x")))
        #expect(try await executor(postTransport).execute(post).status == 502)
        #expect(postTransport.count == 1)
    }

    @Test("other error statuses are returned without retry", arguments: [400, 403, 404, 409, 412, 500, 507])
    func noRetryForErrors(_ status: Int) async throws {
        let transport = ScriptedTransport([.status(status), .status(200)])
        #expect(try await executor(transport).execute(TransportRequest(method: .GET, url: base)).status == status)
        #expect(transport.count == 1)
    }

    @Test("a one-shot upload body is never retried")
    func oneShotNeverRetried() async throws {
        for step in [ScriptedStep.connectionRefused, .status(503, [("Retry-After", "0")]), .status(429, [("Retry-After", "0")])] {
            let sequence = OneShotSequence([Array("abc".utf8), Array("def".utf8)])
            let transport = ScriptedTransport([step, .status(201)])
            let request = TransportRequest(method: .PUT, url: base.appendingPathComponent("f"), body: .source(AsyncSequenceSource(sequence, length: 6)))
            do {
                let response = try await executor(transport).execute(request)
                #expect(response.status != 201, "the one-shot body was sent again")
            } catch let error as ProviderError {
                #expect(error.code == .network)
            }
            #expect(transport.count == 1)
            #expect(sequence.timesIterated == 1)
            #expect(transport.requests.first?.body == Array("abcdef".utf8))
        }
    }

    @Test("a replayable upload body is sent whole on each attempt")
    func replayableBodyResent() async throws {
        let transport = ScriptedTransport([.connectionRefused, .status(201)])
        let request = TransportRequest(method: .PUT, url: base.appendingPathComponent("f"), body: .source(DataSource(string: "payload")))
        #expect(try await executor(transport).execute(request).status == 201)
        #expect(transport.requests.map(\.body) == [Array("payload".utf8), Array("payload".utf8)])
    }

    // MARK: Redirects

    @Test("a redirect to the same origin keeps Authorization")
    func redirectSameOrigin() async throws {
        let transport = ScriptedTransport([.status(301, [("Location", "/dav/moved/")]), .status(200)])
        let auth = BasicAuthenticator(username: "ann", password: "pw")
        let response = try await executor(transport, auth: auth).execute(TransportRequest(method: .PROPFIND, url: base))
        #expect(response.status == 200)
        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests[1].url.absoluteString == "http://127.0.0.1:8080/dav/moved/")
        #expect(requests[1].method == "PROPFIND")
        let expected = "Basic " + Data("ann:pw".utf8).base64EncodedString()
        #expect(requests[0].header("Authorization") == expected)
        #expect(requests[1].header("Authorization") == expected)
    }

    @Test("a redirect to another origin strips Authorization and Cookie", arguments: [
        "http://other.example/dav/x", "http://127.0.0.1:9090/dav/x", "https://127.0.0.1:8080/dav/x", "//evil.example/steal",
    ])
    func redirectOtherOrigin(_ location: String) async throws {
        let transport = ScriptedTransport([.status(302, [("Location", location)]), .status(200)])
        let auth = BasicAuthenticator(username: "ann", password: "pw")
        var headers = HTTPHeaders()
        headers.add(name: "Cookie", value: "session=s3cret")
        headers.add(name: "X-Auth-Token", value: "t0ken")
        headers.add(name: "Depth", value: "0")
        let response = try await executor(transport, auth: auth).execute(TransportRequest(method: .GET, url: base, headers: headers))
        #expect(response.status == 200)
        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].header("Authorization") != nil)
        #expect(requests[0].header("Cookie") == "session=s3cret")
        #expect(requests[1].header("Authorization") == nil)
        #expect(requests[1].header("Cookie") == nil)
        #expect(requests[1].header("X-Auth-Token") == nil)
        #expect(requests[1].header("Depth") == "0", "ordinary headers follow the redirect")
        #expect(requests[1].url.host != "127.0.0.1" || requests[1].url.port != 8080 || requests[1].url.scheme != "http")
    }

    @Test("a bearer token does not follow a redirect to another host, and a 401 there is not refreshed")
    func bearerOtherHost() async throws {
        let refreshes = Counter()
        let auth = BearerAuthenticator(token: "old") { refreshes.increment(); return "new" }
        let transport = ScriptedTransport([.status(307, [("Location", "http://cdn.example/blob")]), .status(401)])
        let response = try await executor(transport, auth: auth).execute(TransportRequest(method: .GET, url: base))
        #expect(response.status == 401)
        #expect(transport.requests[1].header("Authorization") == nil)
        #expect(refreshes.value == 0)
    }

    @Test("a redirect from https to http is refused")
    func httpsToHttp() async throws {
        let transport = ScriptedTransport([.status(302, [("Location", "http://secure.example/x")]), .status(200)])
        let request = TransportRequest(method: .GET, url: url("https://secure.example/dav/"))
        let error = await #expect(throws: ProviderError.self) { try await executor(transport).execute(request) }
        #expect(error?.code == .forbidden)
        #expect(transport.count == 1)
    }

    @Test("a redirect to a non-HTTP scheme is refused")
    func redirectToFile() async throws {
        let transport = ScriptedTransport([.status(302, [("Location", "file:///etc/passwd")])])
        let error = await #expect(throws: ProviderError.self) { try await executor(transport).execute(TransportRequest(method: .GET, url: base)) }
        #expect(error?.code == .invalidResponse)
        #expect(transport.count == 1)
    }

    @Test("303 turns a PUT into a GET without a body")
    func seeOther() async throws {
        let transport = ScriptedTransport([.status(303, [("Location", "/dav/result")]), .status(200)])
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain")
        headers.add(name: "Content-Length", value: "4")
        let request = TransportRequest(method: .PUT, url: base.appendingPathComponent("f"), headers: headers, body: .bytes(ByteBuffer(string: "data")))
        #expect(try await executor(transport).execute(request).status == 200)
        let second = transport.requests[1]
        #expect(second.method == "GET")
        #expect(second.body == nil)
        #expect(second.header("Content-Type") == nil)
        #expect(second.header("Content-Length") == nil)
        #expect(second.url.path == "/dav/result")
        #expect(transport.requests[0].body == Array("data".utf8))
    }

    @Test("302 turns a POST into a GET; 307 keeps the method and body")
    func postRedirects() async throws {
        let transport = ScriptedTransport([.status(302, [("Location", "/a")]), .status(200)])
        _ = try await executor(transport).execute(TransportRequest(method: .POST, url: base, body: .bytes(ByteBuffer(string: "x"))))
        #expect(transport.requests[1].method == "GET")
        #expect(transport.requests[1].body == nil)

        let keep = ScriptedTransport([.status(307, [("Location", "/b")]), .status(200)])
        _ = try await executor(keep).execute(TransportRequest(method: .PUT, url: base, body: .bytes(ByteBuffer(string: "y"))))
        #expect(keep.requests[1].method == "PUT")
        #expect(keep.requests[1].body == Array("y".utf8))
    }

    @Test("a 307 cannot replay a one-shot body")
    func redirectOneShot() async throws {
        let sequence = OneShotSequence([Array("z".utf8)])
        let transport = ScriptedTransport([.status(307, [("Location", "/elsewhere")]), .status(201)])
        let request = TransportRequest(method: .PUT, url: base, body: .source(AsyncSequenceSource(sequence)))
        await #expect(throws: ProviderError.self) { try await executor(transport).execute(request) }
        #expect(transport.count == 1)
        #expect(sequence.timesIterated == 1)
    }

    @Test("too many redirects is an error")
    func tooManyRedirects() async throws {
        let transport = ScriptedTransport([], fallback: .status(302, [("Location", "/dav/loop")]))
        let error = await #expect(throws: ProviderError.self) {
            try await executor(transport, maxRedirects: 3).execute(TransportRequest(method: .GET, url: base))
        }
        #expect(error?.code == .server)
        #expect(error?.httpStatus == 302)
        #expect(transport.count == 4)
    }

    @Test("a 3xx without Location is returned as it is")
    func redirectWithoutLocation() async throws {
        let transport = ScriptedTransport([.status(302), .status(200)])
        #expect(try await executor(transport).execute(TransportRequest(method: .GET, url: base)).status == 302)
        #expect(transport.count == 1)
    }

    // MARK: Authentication

    @Test("401 refreshes a bearer token once and replays once; a second 401 is returned")
    func bearerRefreshOnce() async throws {
        let refreshes = Counter()
        let auth = BearerAuthenticator(token: "old") { "new-\(refreshes.increment())" }
        let transport = ScriptedTransport([.status(401), .status(401), .status(200)])
        let response = try await executor(transport, auth: auth).execute(TransportRequest(method: .GET, url: base))
        #expect(response.status == 401)
        #expect(refreshes.value == 1)
        #expect(transport.count == 2)
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer old", "Bearer new-1"])
    }

    @Test("401 then 200 after a refresh succeeds, and the new token is kept")
    func bearerRefreshSucceeds() async throws {
        let refreshes = Counter()
        let auth = BearerAuthenticator(token: "old") { refreshes.increment(); return "fresh" }
        let transport = ScriptedTransport([.status(401), .status(200), .status(200)])
        let exec = executor(transport, auth: auth)
        #expect(try await exec.execute(TransportRequest(method: .GET, url: base)).status == 200)
        #expect(try await exec.execute(TransportRequest(method: .GET, url: base)).status == 200)
        #expect(refreshes.value == 1)
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer old", "Bearer fresh", "Bearer fresh"])
    }

    @Test("a bearer token without a refresher does not replay")
    func bearerWithoutRefresh() async throws {
        let transport = ScriptedTransport([.status(401), .status(200)])
        let response = try await executor(transport, auth: BearerAuthenticator(token: "t")).execute(TransportRequest(method: .GET, url: base))
        #expect(response.status == 401)
        #expect(transport.count == 1)
    }

    @Test("a failing refresh throws its error and sends nothing more")
    func refreshFails() async throws {
        let auth = BearerAuthenticator(token: "old") { throw ProviderError(.unauthorized, "refresh token revoked") }
        let transport = ScriptedTransport([.status(401), .status(200)])
        let error = await #expect(throws: ProviderError.self) { try await executor(transport, auth: auth).execute(TransportRequest(method: .GET, url: base)) }
        #expect(error?.code == .unauthorized)
        #expect(transport.count == 1)
    }

    @Test("a 401 on a one-shot body is not replayed")
    func refreshOneShot() async throws {
        let refreshes = Counter()
        let auth = BearerAuthenticator(token: "old") { refreshes.increment(); return "new" }
        let sequence = OneShotSequence([Array("body".utf8)])
        let transport = ScriptedTransport([.status(401), .status(201)])
        let request = TransportRequest(method: .PUT, url: base, body: .source(AsyncSequenceSource(sequence)))
        #expect(try await executor(transport, auth: auth).execute(request).status == 401)
        #expect(transport.count == 1)
        #expect(sequence.timesIterated == 1)
    }

    @Test("Basic authentication never replays a 401")
    func basicNeverReplays() async throws {
        let transport = ScriptedTransport([.status(401), .status(200)])
        let auth = BasicAuthenticator(username: "ann", password: "wrong")
        let response = try await executor(transport, auth: auth).execute(TransportRequest(method: .GET, url: base))
        #expect(response.status == 401)
        #expect(transport.count == 1)
        #expect(transport.requests[0].header("Authorization") == "Basic " + Data("ann:wrong".utf8).base64EncodedString())
    }

    @Test("Credentials make the matching authenticator")
    func credentialsAuthenticator() async throws {
        var request = TransportRequest(method: .GET, url: base)
        try await Credentials.basic(username: "u", password: "p").httpAuthenticator().authorize(&request)
        #expect(request.headers.first(name: "authorization") == "Basic dTpw")
        request = TransportRequest(method: .GET, url: base)
        try await Credentials.appPassword(username: "u", password: "p").httpAuthenticator().authorize(&request)
        #expect(request.headers.first(name: "authorization") == "Basic dTpw")
        request = TransportRequest(method: .GET, url: base)
        try await Credentials.bearer(accessToken: "at", refreshToken: "rt").httpAuthenticator().authorize(&request)
        #expect(request.headers.first(name: "authorization") == "Bearer at")
        request = TransportRequest(method: .GET, url: base)
        try await Credentials.none.httpAuthenticator().authorize(&request)
        #expect(request.headers.first(name: "authorization") == nil)
    }

    // MARK: Misc

    @Test("default headers are added unless the request sets them")
    func defaultHeaders() async throws {
        let transport = ScriptedTransport([.status(200), .status(200)])
        let exec = executor(transport)
        _ = try await exec.execute(TransportRequest(method: .GET, url: base))
        _ = try await exec.execute(TransportRequest(method: .GET, url: base, headers: ["User-Agent": "custom"]))
        #expect(transport.requests[0].header("User-Agent") == "Strata/1.0")
        #expect(transport.requests[1].headers["User-Agent"] == ["custom"])
    }

    @Test("a cancelled task sends nothing")
    func cancelled() async throws {
        let transport = ScriptedTransport([.status(200)])
        let exec = executor(transport)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await exec.execute(TransportRequest(method: .GET, url: base))
        }
        let result = await task.result
        #expect(throws: ProviderError.self) { try result.get() }
        #expect((try? result.get()) == nil)
        if case .failure(let error as ProviderError) = result { #expect(error.code == .cancelled) }
        #expect(transport.count == 0)
    }
}

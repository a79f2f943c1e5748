import Foundation
import ProviderAPI
import Testing
import HTTPProviderKit

private let base = url("http://127.0.0.1:8080/dav/")

private func executor(
    _ transport: any HTTPTransport, retry: RetryPolicy = fastRetry, onRetry: (@Sendable (RetryNotice) -> Void)? = nil
) -> RequestExecutor {
    RequestExecutor(transport: transport, retry: retry, logger: quietLogger, onRetry: onRetry)
}

@Suite("RequestExecutor retries and deadlines")
struct RetryDeadlineTests {
    @Test("a refused connection is retried once, not maxAttempts times")
    func refusedOnce() async throws {
        let transport = ScriptedTransport([], fallback: .connectionRefused)
        let notices = Collector<RetryNotice>()
        let error = await #expect(throws: ProviderError.self) {
            try await executor(transport, onRetry: { notices.append($0) }).execute(TransportRequest(method: .GET, url: base))
        }
        #expect(error?.message == "connection refused")
        #expect(transport.count == 2)
        #expect(notices.values.map(\.attempt) == [2])
    }

    @Test("a server silent for the whole read timeout is retried once, not maxAttempts times (issue 34)")
    func silentOnce() async throws {
        let transport = ScriptedTransport([], fallback: .fail(ProviderError(.network, "no data for 30 s")))
        let notices = Collector<RetryNotice>()
        let error = await #expect(throws: ProviderError.self) {
            try await executor(transport, onRetry: { notices.append($0) }).execute(TransportRequest(method: .GET, url: base))
        }
        #expect(error?.message == "no data for 30 s")
        #expect(transport.count == 2)
        #expect(notices.values.map(\.attempt) == [2])
        // Other network failures keep the policy's attempts (onRetry's test: 4 for a reset).
    }

    @Test("a silence is retried only where the request may be sent again: never a POST")
    func silentPostNever() async throws {
        let transport = ScriptedTransport([], fallback: .fail(ProviderError(.network, "no data for 30 s")))
        _ = await #expect(throws: ProviderError.self) {
            try await executor(transport).execute(TransportRequest(method: .POST, url: base))
        }
        #expect(transport.count == 1)
    }

    @Test("a host that cannot be resolved is never retried")
    func unresolvedNever() async throws {
        let transport = ScriptedTransport([], fallback: .fail(ProviderError(.network, "cannot resolve host nowhere.invalid")))
        let notices = Collector<RetryNotice>()
        let error = await #expect(throws: ProviderError.self) {
            try await executor(transport, onRetry: { notices.append($0) }).execute(TransportRequest(method: .GET, url: base))
        }
        #expect(error?.message == "cannot resolve host nowhere.invalid")
        #expect(transport.count == 1)
        #expect(notices.values.isEmpty)
    }

    @Test("a failed TLS handshake (certificate, host name, not TLS) is never retried")
    func tlsNever() async throws {
        let transport = ScriptedTransport(
            [], fallback: .fail(ProviderError(.network, "TLS handshake failed: the server's certificate or TLS answer was refused")))
        let notices = Collector<RetryNotice>()
        let error = await #expect(throws: ProviderError.self) {
            try await executor(transport, onRetry: { notices.append($0) }).execute(TransportRequest(method: .GET, url: base))
        }
        #expect(error?.message?.hasPrefix("TLS handshake failed") == true)
        #expect(transport.count == 1)
        #expect(notices.values.isEmpty)
    }

    @Test("onRetry hears each retry with its attempt, the policy's maximum and the reason")
    func noticesForFailures() async throws {
        let transport = ScriptedTransport([], fallback: .connectionReset)
        let notices = Collector<RetryNotice>()
        _ = await #expect(throws: ProviderError.self) {
            try await executor(transport, onRetry: { notices.append($0) }).execute(TransportRequest(method: .GET, url: base))
        }
        #expect(transport.count == 4)
        #expect(notices.values.map(\.attempt) == [2, 3, 4])
        #expect(notices.values.allSatisfy { $0.maxAttempts == 4 && $0.reason == "the server closed the connection" })
        #expect(notices.values.allSatisfy { $0.request == "GET /dav/" })
    }

    @Test("onRetry hears a throttled answer as its status")
    func noticeForStatus() async throws {
        let transport = ScriptedTransport([.status(503, [("Retry-After", "0")]), .status(200)])
        let notices = Collector<RetryNotice>()
        let response = try await executor(transport, onRetry: { notices.append($0) }).execute(TransportRequest(method: .GET, url: base))
        #expect(response.status == 200)
        #expect(notices.values.map(\.reason) == ["HTTP 503"])
    }

    @Test("the notice reads as the CLI prints it")
    func noticeText() {
        let notice = RetryNotice(request: "GET /path", attempt: 2, maxAttempts: 4, reason: "connection refused", delay: .milliseconds(400))
        #expect(notice.description == "retrying GET /path in 0.4 s (attempt 2 of 4): connection refused")
    }

    @Test("no retry starts past the total deadline")
    func totalDeadline() async throws {
        let transport = ScriptedTransport([], fallback: .connectionReset)
        var policy = fastRetry
        policy.totalDeadline = .zero
        _ = await #expect(throws: ProviderError.self) { try await executor(transport, retry: policy).execute(TransportRequest(method: .GET, url: base)) }
        #expect(transport.count == 1)

        let throttled = ScriptedTransport([], fallback: .status(503, [("Retry-After", "0")]))
        let response = try await executor(throttled, retry: policy).execute(TransportRequest(method: .GET, url: base))
        #expect(response.status == 503)
        #expect(throttled.count == 1)
    }

    @Test("a retry whose delay would end past the total deadline does not start")
    func deadlineCountsTheDelay() async throws {
        let transport = ScriptedTransport([], fallback: .connectionReset)
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(200), maxDelay: .milliseconds(200), totalDeadline: .milliseconds(50))
        _ = await #expect(throws: ProviderError.self) { try await executor(transport, retry: policy).execute(TransportRequest(method: .GET, url: base)) }
        #expect(transport.count == 1)
    }

    @Test("the standard policy's total deadline is 120 s")
    func standardDeadline() {
        #expect(RetryPolicy.standard.totalDeadline == .seconds(120))
        #expect(AsyncHTTPClientTransport.Configuration().readTimeout == .seconds(30))
        #expect(AsyncHTTPClientTransport.Configuration().connectTimeout == .seconds(10))
        #expect(AsyncHTTPClientTransport.Configuration().minimumSpeed == MinimumSpeed(bytesPerSecond: 1024, window: .seconds(60)))
    }
}


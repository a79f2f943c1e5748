import Foundation
import HTTPProviderKit
import Logging
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderTesting
import Testing

// Written as an outside adapter author would: plain imports, public API only.

@Suite("Adapter kit: RequestExecutor(configuration:)")
struct ExecutorFromConfigurationTests {
    @Test("the configuration's transport, timeouts, credentials, retry policy, logger and onRetry all reach the requests")
    func everySettingReachesTheRequests() async throws {
        let recorder = RecordingTransport()
        let faults = FaultInjectingTransport(recorder)
        faults.inject(.status(503, retryAfter: 0), method: "GET")
        let notices = NIOLockedValueBox<[RetryNotice]>([])
        let records = LogRecords()
        var logger = Logger(label: "adapter") { _ in RecordingLogHandler(records) }
        logger.logLevel = .debug
        let configuration = ProviderConfiguration(
            url: URL(string: "https://files.example.com/api/")!, credentials: .basic(username: "ann", password: "pw"),
            transport: faults, logger: logger,
            retry: RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(1), maxDelay: .milliseconds(1)),
            timeouts: Timeouts(read: .seconds(7)), onRetry: { notice in notices.withLockedValue { $0.append(notice) } })

        let executor = RequestExecutor(configuration: configuration)
        let response = try await executor.execute(
            TransportRequest(method: .GET, url: URL(string: "https://files.example.com/api/list")!))

        #expect(response.status == 200)
        #expect(faults.appliedFaults == 1, "the first answer was the injected 503")
        let notice = try #require(notices.withLockedValue { $0 }.first, "onRetry heard of the retry")
        #expect(notice.attempt == 2 && notice.maxAttempts == 2, "the configuration's retry policy: \(notice)")
        #expect(records.all.contains { $0.message == "retrying after status" && $0.level == .debug }, "the configuration's logger")
        let sent = try #require(recorder.requests.first)
        #expect(sent.timeouts.read == .seconds(7), "the configuration's timeouts")
        #expect(sent.headers.first(name: "authorization")?.hasPrefix("Basic ") == true, "the credentials as Basic")
        #expect(sent.logger?.label == "adapter")
    }

    @Test("an adapter that signs in its own way passes its authenticator, and its own default headers")
    func ownAuthenticatorAndHeaders() async throws {
        let recorder = RecordingTransport()
        let configuration = ProviderConfiguration(
            url: URL(string: "https://files.example.com/")!, credentials: .basic(username: "ann", password: "pw"), transport: recorder)
        let executor = RequestExecutor(
            configuration: configuration, authenticator: NoAuthenticator(), defaultHeaders: ["User-Agent": "Adapter/2"])
        _ = try await executor.execute(TransportRequest(method: .GET, url: URL(string: "https://files.example.com/a")!))
        let sent = try #require(recorder.requests.first)
        #expect(sent.headers.first(name: "authorization") == nil)
        #expect(sent.headers.first(name: "user-agent") == "Adapter/2")
    }
}

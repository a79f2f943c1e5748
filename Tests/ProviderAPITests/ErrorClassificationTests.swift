import Foundation
import HTTPProviderKit
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI
import Testing

/// An error no layer of Strata knows: a bug, or a component that did not map its own.
private struct LocalBug: Error, CustomStringConvertible {
    var description: String { "index out of range in the name table" }
}

/// A transport that fails every request with `error`, counting them and keeping the logger each
/// request carried.
private final class FailingTransport: HTTPTransport {
    let error: any Error & Sendable
    private let state = NIOLockedValueBox<(count: Int, loggers: [Logger?])>((0, []))

    init(_ error: any Error & Sendable) { self.error = error }

    var count: Int { state.withLockedValue { $0.count } }
    var loggers: [Logger?] { state.withLockedValue { $0.loggers } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        state.withLockedValue {
            $0.count += 1
            $0.loggers.append(request.logger)
        }
        throw error
    }
}

private let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), maxDelay: .milliseconds(1))

@Suite("Error classification")
struct ErrorClassificationTests {
    @Test("an error nothing recognises is unknown, and the executor sends the request once")
    func unknownNotRetried() async throws {
        let transport = FailingTransport(LocalBug())
        let executor = RequestExecutor(transport: transport, retry: policy, logger: quietLogger)
        let error = await #expect(throws: ProviderError.self) {
            try await executor.execute(TransportRequest(method: .GET, url: url("http://127.0.0.1:8080/dav/a.txt")))
        }
        #expect(error?.code == .unknown)
        #expect(error?.underlying == "index out of range in the name table")
        #expect(error?.request == "GET /dav/a.txt")
        #expect(transport.count == 1, "an unknown error is not retried as a network failure")
    }

    @Test("a socket's reset is still a network failure, and still retried")
    func networkStillRetried() async throws {
        let transport = FailingTransport(IOError(errnoCode: ECONNRESET, reason: "read"))
        let executor = RequestExecutor(transport: transport, retry: policy, logger: quietLogger)
        let error = await #expect(throws: ProviderError.self) {
            try await executor.execute(TransportRequest(method: .GET, url: url("http://127.0.0.1:8080/dav/a.txt")))
        }
        #expect(error?.code == .network)
        #expect(transport.count == 3)
    }

    @Test("wrap: NIO's socket errors are network, its other I/O errors local, anything else unknown")
    func wrapClassifies() {
        #expect(ProviderError.wrap(LocalBug()).code == .unknown)
        #expect(ProviderError.wrap(LocalBug(), fallback: .invalidResponse).code == .invalidResponse)
        #expect(ProviderError.wrap(ChannelError.ioOnClosedChannel).code == .network)
        #expect(ProviderError.wrap(IOError(errnoCode: ECONNREFUSED, reason: "connect")).code == .network)
        #expect(ProviderError.wrap(IOError(errnoCode: EPIPE, reason: "write")).code == .network)
        #expect(ProviderError.wrap(IOError(errnoCode: EIO, reason: "pwrite")).code == .io)
        #expect(ProviderError.wrap(IOError(errnoCode: ENOSPC, reason: "pwrite")).code == .quotaExceeded)
        #expect(ProviderError.wrap(POSIXError(.EROFS)).code == .io)
        #expect(ProviderError.Code.unknown.description == "unknown")
    }

    @Test("the default logger of a configuration, a registry and an executor drops everything")
    func defaultLoggersAreSilent() {
        let configuration = ProviderConfiguration(url: url("http://127.0.0.1:8080/"))
        #expect(configuration.logger.handler is SwiftLogNoOpLogHandler)
        #expect(RequestExecutor(transport: FailingTransport(LocalBug())).logger.handler is SwiftLogNoOpLogHandler)
    }
}

@Suite("RequestExecutor logging")
struct RequestExecutorLoggingTests {
    @Test("each exchange is one trace line with the URL's secrets removed; the logger goes with the request")
    func traceLine() async throws {
        let records = LogRecords()
        var logger = Logger(label: "test") { _ in RecordingLogHandler(records) }
        logger.logLevel = .trace
        let transport = ScriptedTransport([.status(200)])
        let executor = RequestExecutor(transport: transport, logger: logger)
        let target = url("http://ann:hunter2@127.0.0.1:8080/dav/a.txt?token=s3cr3t&x=1")
        _ = try await executor.execute(TransportRequest(method: .GET, url: target))

        let lines = records.all.filter { $0.message == "http" }
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.level == .trace)
        #expect(line.metadata["method"] == "GET")
        #expect(line.metadata["status"] == "200")
        #expect(line.metadata["duration"] != nil)
        let shown = try #require(line.metadata["url"])
        #expect(shown.contains("/dav/a.txt"))
        #expect(!shown.contains("hunter2") && !shown.contains("s3cr3t"), "\(shown)")
        #expect(!records.all.contains { "\($0.message) \($0.metadata)".contains("hunter2") || "\($0.metadata)".contains("s3cr3t") })

        let failing = FailingTransport(LocalBug())
        _ = try? await RequestExecutor(transport: failing, logger: logger).execute(TransportRequest(method: .GET, url: target))
        #expect(failing.count == 1)
        #expect(failing.loggers.first??.label == "test", "the transport gets the executor's logger, for AsyncHTTPClient")
        #expect(failing.loggers.first??.logLevel == .trace)
    }

    @Test("a retry is logged at debug with its reason; nothing above debug")
    func retryAtDebug() async throws {
        let records = LogRecords()
        var logger = Logger(label: "test") { _ in RecordingLogHandler(records) }
        logger.logLevel = .debug
        let transport = ScriptedTransport([.connectionReset, .status(200)])
        let executor = RequestExecutor(transport: transport, retry: policy, logger: logger)
        _ = try await executor.execute(TransportRequest(method: .GET, url: url("http://127.0.0.1:8080/dav/a.txt")))
        let retries = records.all.filter { $0.message.hasPrefix("retrying") }
        #expect(retries.count == 1)
        #expect(retries.first?.level == .debug)
        #expect(retries.first?.metadata["error"]?.contains("the server closed the connection") == true)
        #expect(records.all.allSatisfy { $0.level <= .debug })
        #expect(!records.all.contains { $0.level == .trace }, "the request lines are at trace, below the logger's level")
    }
}

/// What a ``RecordingLogHandler`` received.
final class LogRecords: Sendable {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }
    private let records = NIOLockedValueBox<[Record]>([])
    var all: [Record] { records.withLockedValue { $0 } }
    func append(_ record: Record) { records.withLockedValue { $0.append(record) } }
}

/// A log handler that keeps every record, its metadata as text.
struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    init(_ records: LogRecords) { self.records = records }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        records.append(.init(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
    }
}

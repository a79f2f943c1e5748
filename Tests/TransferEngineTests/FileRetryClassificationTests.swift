import Foundation
import Logging
import NIOConcurrencyHelpers
import ProviderAPI
import Testing
import TransferEngine

/// An error no layer of Strata knows: a bug, or a component that did not map its own.
private struct LocalBug: Error {}

/// The in-memory server's provider, whose downloads fail with `error`.
private struct FailingDownloads: ForwardingProvider {
    let base: any StorageProvider
    let error: any Error & Sendable

    func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        throw error
    }
}

/// Every message logged, with its level and metadata as text.
private final class Logged: Sendable {
    private let records = NIOLockedValueBox<[(level: Logger.Level, message: String, metadata: [String: String])]>([])
    var all: [(level: Logger.Level, message: String, metadata: [String: String])] { records.withLockedValue { $0 } }

    var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(logged: self) }
        logger.logLevel = .trace
        return logger
    }

    private struct Handler: LogHandler {
        let logged: Logged
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }.mapValues { "\($0)" }
            logged.records.withLockedValue { $0.append((event.level, "\(event.message)", merged)) }
        }
    }
}

@Suite("File retries by error code")
struct FileRetryClassificationTests {
    /// Copies one file from a source whose downloads fail with `error`: how many times the file
    /// was started, and the report.
    private func copy(failingWith error: any Error & Sendable, logger: Logger? = nil) async throws -> (attempts: Int, report: TransferReport) {
        let memory = MemoryServer()
        _ = try await memory.provider.upload(data: Data("hello".utf8), to: "/a.txt")
        let source = FailingDownloads(base: memory.provider, error: error)
        let destination = try LocalTree()
        let attempts = NIOLockedValueBox(0)
        var options = TransferManager.Options.testing()
        if let logger { options.logger = logger }
        let manager = TransferManager(options: options) { event in
            if case .started(let action, _) = event, action.relativePath.name == "a.txt" { attempts.withLockedValue { $0 += 1 } }
        }
        let report = try await manager.copy(from: TransferEndpoint(source), to: destination.endpoint)
        #expect(!destination.exists("a.txt"))
        return (attempts.withLockedValue { $0 }, report)
    }

    @Test("an error nothing recognises is unknown, and the file is not sent again")
    func unknownNotRetried() async throws {
        let (attempts, report) = try await copy(failingWith: LocalBug())
        #expect(report.failures.map(\.code) == ["unknown"])
        #expect(attempts == 1, "a local bug is not retried as if the network had failed")
    }

    @Test("a local I/O error is not retried")
    func ioNotRetried() async throws {
        let (attempts, report) = try await copy(failingWith: ProviderError(.io, "cache database: disk I/O error"))
        #expect(report.failures.map(\.code) == ["io"])
        #expect(attempts == 1)
    }

    @Test("a network failure is still retried, as the options allow, and each retry logged at debug with its reason")
    func networkRetried() async throws {
        let logged = Logged()
        let (attempts, report) = try await copy(failingWith: ProviderError(.network, "connection reset"), logger: logged.logger)
        #expect(report.failures.map(\.code) == ["network"])
        #expect(attempts == 3)
        let retries = logged.all.filter { $0.message == "sending the file again" }
        #expect(retries.count == 2)
        #expect(retries.allSatisfy { $0.level == .debug && $0.metadata["error"]?.contains("connection reset") == true })
        let rules = logged.all.filter { $0.message == "comparison rule chosen" }
        #expect(rules.count == 1)
        #expect(rules.first?.level == .debug)
        #expect(rules.first?.metadata["rule"]?.isEmpty == false)
    }
}

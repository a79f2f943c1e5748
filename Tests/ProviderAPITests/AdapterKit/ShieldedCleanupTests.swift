import Foundation
import HTTPProviderKit
import Logging
import ProviderAPI
import Testing

// Written as an outside adapter author would: plain imports, public API only.

@Suite("Adapter kit: RequestExecutor.cleanup")
struct ShieldedCleanupTests {
    private let base = URL(string: "http://files.example.com/")!

    @Test("a task cancelled mid-upload still sends its cleanup's DELETE; a plain request from it sends nothing")
    func cleanupAfterCancellation() async throws {
        let server = HangingUploadServer()
        let executor = RequestExecutor(transport: server, retry: .none)
        let temporary = base.appendingPathComponent(".upload.tmp")
        let upload = Task {
            do {
                _ = try await executor.execute(TransportRequest(method: .PUT, url: temporary, body: .source(endlessBody("partial"))))
            } catch {
                // What an adapter wrote before: refused at once, since the task is cancelled.
                let plain = await #expect(throws: ProviderError.self) {
                    _ = try await executor.execute(TransportRequest(method: .DELETE, url: temporary))
                }
                #expect(plain?.code == .cancelled)
                let failure = await executor.cleanup("delete the temporary upload") {
                    let response = try await executor.execute(TransportRequest(method: .DELETE, url: temporary))
                    guard response.isSuccess else { throw ProviderError(.server, "DELETE answered \(response.status)") }
                }
                #expect(failure == nil)
                throw error
            }
        }
        var started = server.uploadStarted.makeAsyncIterator()
        _ = await started.next()
        #expect(server.files["/.upload.tmp"] == "partial", "the server holds the partial upload")
        upload.cancel()

        let result = await upload.result
        #expect((try? result.get()) == nil, "the upload failed")
        #expect(server.requests == ["PUT /.upload.tmp", "DELETE /.upload.tmp"])
        #expect(server.files.isEmpty, "the partial upload was deleted")
    }

    @Test("a failing cleanup is logged and returned, never thrown")
    func failureIsLogged() async throws {
        let server = HangingUploadServer()
        server.fail("DELETE", with: 500)
        let records = LogRecords()
        var logger = Logger(label: "adapter") { _ in RecordingLogHandler(records) }
        logger.logLevel = .warning
        let executor = RequestExecutor(transport: server, retry: .none, logger: logger)
        let failure = await executor.cleanup("delete /a.tmp") {
            let response = try await executor.execute(TransportRequest(method: .DELETE, url: base.appendingPathComponent("a.tmp")))
            guard response.isSuccess else { throw await ProviderError.http(response, request: TransportRequest(method: .DELETE, url: response.url)) }
        }
        #expect(failure?.httpStatus == 500)
        let line = try #require(records.all.first { $0.message == "cleanup failed" })
        #expect(line.level == .warning)
        #expect(line.metadata["cleanup"] == "delete /a.tmp")
    }

    @Test("a cleanup that does not end is cancelled after its timeout")
    func boundedByItsTimeout() async throws {
        let server = HangingUploadServer()
        let executor = RequestExecutor(transport: server, retry: .none)
        let failure = await executor.cleanup("a PUT that never ends", timeout: .milliseconds(20)) {
            _ = try await executor.execute(
                TransportRequest(method: .PUT, url: base.appendingPathComponent("x"), body: .source(endlessBody("x"))))
        }
        #expect(failure?.code == .cancelled)
        #expect(failure?.message?.contains("longer than") == true)
    }
}

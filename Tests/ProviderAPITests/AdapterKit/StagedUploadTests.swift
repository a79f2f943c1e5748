import Foundation
import HTTPProviderKit
import NIOCore
import NIOHTTP1
import ProviderAPI
import Testing

// Written as an outside adapter author would: plain imports, public API only.

/// The smallest adapter that uploads through a temporary: one folder, `PUT`, `MOVE`, `DELETE`.
private struct TinyAdapter: Sendable {
    let executor: RequestExecutor
    let folder = URL(string: "http://files.example.com/docs/")!

    /// Uploads `body` as `name`; `replace` says whether a taken name is replaced (else it fails).
    func upload(_ body: any UploadSource, name: String, replace: Bool) async throws -> String {
        let executor = executor
        let folder = folder
        return try await StagedUpload(executor: executor).run(
            put: { temporary in
                let request = TransportRequest(method: .PUT, url: folder.appendingPathComponent(temporary), body: .source(body))
                let response = try await executor.execute(request)
                guard response.isSuccess else { throw await ProviderError.http(response, request: request) }
            },
            place: { temporary in
                var headers = HTTPHeaders()
                headers.add(name: "Destination", value: folder.appendingPathComponent(name).absoluteString)
                headers.add(name: "Overwrite", value: replace ? "T" : "F")
                let request = TransportRequest(method: .MOVE, url: folder.appendingPathComponent(temporary), headers: headers)
                let response = try await executor.execute(request)
                if response.status == 412 { throw ProviderError(.alreadyExists, "\(name) already exists") }
                guard response.isSuccess else { throw await ProviderError.http(response, request: request) }
                return name
            },
            delete: { temporary in
                let request = TransportRequest(method: .DELETE, url: folder.appendingPathComponent(temporary))
                let response = try await executor.execute(request)
                guard response.isSuccess else { throw await ProviderError.http(response, request: request) }
            })
    }
}

@Suite("Adapter kit: StagedUpload")
struct StagedUploadTests {
    @Test("an upload goes to a hidden temporary, then is moved onto its name; nothing else is left")
    func success() async throws {
        let server = HangingUploadServer()
        let adapter = TinyAdapter(executor: RequestExecutor(transport: server, retry: .none))
        let name = try await adapter.upload(DataSource(string: "hello"), name: "a.txt", replace: false)
        #expect(name == "a.txt")
        #expect(server.files == ["/docs/a.txt": "hello"])
        let methods = server.requests.map { $0.split(separator: " ")[0] }
        #expect(methods == ["PUT", "MOVE"])
        let temporary = try #require(server.requests.first?.split(separator: "/").last)
        #expect(temporary.hasPrefix(".strata-upload-") && temporary.hasSuffix(".tmp"), "hidden: \(temporary)")
    }

    @Test("a refused move keeps the old file and deletes the temporary; the move's error is thrown")
    func moveFails() async throws {
        let server = HangingUploadServer(files: ["/docs/a.txt": "old"])
        let adapter = TinyAdapter(executor: RequestExecutor(transport: server, retry: .none))
        let error = await #expect(throws: ProviderError.self) {
            _ = try await adapter.upload(DataSource(string: "new"), name: "a.txt", replace: false)
        }
        #expect(error?.code == .alreadyExists)
        #expect(server.files == ["/docs/a.txt": "old"], "the temporary was deleted, the old file untouched")
        #expect(server.requests.map { $0.split(separator: " ")[0] } == ["PUT", "MOVE", "DELETE"])
    }

    @Test("a failing PUT deletes what the server kept of the temporary")
    func putFails() async throws {
        let server = HangingUploadServer()
        server.fail("PUT", with: 507)
        let adapter = TinyAdapter(executor: RequestExecutor(transport: server, retry: .none))
        let error = await #expect(throws: ProviderError.self) {
            _ = try await adapter.upload(DataSource(string: "new"), name: "a.txt", replace: false)
        }
        #expect(error?.code == .quotaExceeded)
        #expect(server.requests.map { $0.split(separator: " ")[0] } == ["PUT", "DELETE"])
    }

    @Test("an upload cancelled mid-body deletes its partial temporary and is never moved")
    func cancelled() async throws {
        let server = HangingUploadServer(files: ["/docs/a.txt": "old"])
        let adapter = TinyAdapter(executor: RequestExecutor(transport: server, retry: .none))
        let upload = Task { try await adapter.upload(endlessBody("part"), name: "a.txt", replace: true) }
        var started = server.uploadStarted.makeAsyncIterator()
        _ = await started.next()
        #expect(server.files.count == 2, "the partial temporary is on the server")
        upload.cancel()

        let result = await upload.result
        #expect(throws: ProviderError.self) { try result.get() }
        #expect(server.files == ["/docs/a.txt": "old"], "the partial temporary was deleted, the old file untouched")
        #expect(server.requests.map { $0.split(separator: " ")[0] } == ["PUT", "DELETE"])
    }
}

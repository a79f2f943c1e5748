import Foundation
import HTTPProviderKit
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import ProviderTesting
import SharedCache
import Testing
import TransferEngine

/// A copy cut off in the middle of a large file and run again: the destination's upload
/// checkpoint (in the shared cache's SQLite) lets the second run send only the chunks the first
/// did not, the file's download starting at the offset the upload asks for.
@Suite("copies that resume a partly sent file")
struct ResumedCopyTests {
    static let chunk = 64 << 10

    @Test("a large file copy cut after 6 of 17 chunks, run again, sends the 11 missing and stores the file whole")
    func resumedCopy() async throws {
        var configuration = NuxeoTestServer.Configuration()
        configuration.users = ["ann": "secret", "Administrator": "Administrator"]
        let server = try await NuxeoTestServer.start(configuration)
        defer { Task { await server.stop() } }
        let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-resume-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cacheFolder) }
        try FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true)
        let store = try CacheStore(directory: cacheFolder)

        let meter = ChunkMeter { $0.method.rawValue == "POST" && $0.headers.first(name: "X-Upload-Type") == "chunked" }
        var settings = ProviderConfiguration(
            url: try #require(URL(string: server.baseURL.absoluteString + "/default-domain/workspaces/strata")),
            credentials: .basic(username: "ann", password: "secret"), transport: meter.transport, options: ["chunkSize": String(Self.chunk)],
            retry: .none)
        settings.services.uploadCheckpoints = store
        let nuxeo = try await NuxeoProvider.connect(settings)
        _ = try await nuxeo.createFolder(named: "copy", in: .root)

        let local = try LocalTree()
        let size = 16 * Self.chunk + 1000  // 17 chunks
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        try local.write("big.bin", Data(bytes))
        try local.write("small.txt", "small")
        let engine = TransferManager(options: .init(transfers: 1, fileRetry: RetryPolicy(maxAttempts: 1)))
        let destination = TransferEndpoint(nuxeo, at: "/copy")

        meter.cut(after: 6)
        let first = try await engine.copy(from: local.endpoint, to: destination)
        #expect(first.failures.contains { $0.relativePath == "/big.bin" && $0.error.code == .network })
        #expect(meter.chunks == 6)
        #expect(try await store.uploadCheckpoints().count == 1)

        meter.reset()
        let second = try await engine.copy(from: local.endpoint, to: destination)
        #expect(second.failures.isEmpty, "\(second.failures)")
        #expect(meter.chunks == 11)
        #expect(meter.bytes == Int64(size - 6 * Self.chunk))
        let sink = MemorySink(limit: 4 << 20)
        _ = try await nuxeo.download("/copy/big.bin", to: sink, options: DownloadOptions())
        #expect(await sink.bytes == bytes)
        #expect(try await store.uploadCheckpoints().isEmpty)
        #expect(server.batchCount() == 0)

        // Nothing left to send: a third run copies nothing.
        meter.reset()
        let third = try await engine.copy(from: local.endpoint, to: destination)
        #expect(third.filesCopied == 0 && meter.chunks == 0)
    }
}

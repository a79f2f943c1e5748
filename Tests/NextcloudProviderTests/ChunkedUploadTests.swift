import Foundation
import NextcloudTestServer
import ProviderAPI
import Testing
import WebDAVProvider
import ProviderKit

/// Chunking v2 against the loopback server: resume after a dropped connection without
/// re-sending finished chunks, a chunk corrupted on the server caught by the checksum, and
/// the single `PUT` where the server has no chunking.
@Suite("chunked uploads on the loopback server")
struct ChunkedUploadTests {
    static let chunkOptions = ["chunkSize": String(64 << 10), "chunkThreshold": String(128 << 10)]

    /// The chunk numbers PUT into upload folders, in order.
    static func chunkPUTs(_ requests: [RecordedRequest]) -> [String] {
        requests.filter { $0.method == "PUT" && $0.path.contains("/remote.php/dav/uploads/") }
            .compactMap { $0.path.split(separator: "/").last.map(String.init) }
    }

    @Test("an interrupted chunked upload resumes without re-sending the chunks already stored")
    func resume() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        // No retries, so that the dropped connection ends the first attempt.
        let (provider, folder) = try await cloud.scratch(options: Self.chunkOptions, retry: .none)
        let bytes = patternBytes(5 * (64 << 10) + 1000)  // 6 chunks, the last short
        cloud.server.resetRequests()
        cloud.server.faults.dropConnectionAfterChunks = 3
        do {
            _ = try await provider.upload(DataSource(bytes: bytes), to: .root, name: "big.bin", options: UploadOptions())
            Issue.record("the upload went through a dropped connection")
        } catch let error as ProviderError {
            #expect(error.code == .network, "\(error)")
        }
        let first = Self.chunkPUTs(cloud.server.requests())
        #expect(first == ["1", "2", "3", "4"])  // the 4th was read but not stored
        #expect(try await provider.itemIfExists(at: "/big.bin") == nil)
        #expect(cloud.server.contents(user: LoopbackNextcloud.user, path: "\(folder)/big.bin") == nil)

        cloud.server.resetRequests()
        let item = try await provider.upload(DataSource(bytes: bytes), to: .root, name: "big.bin", options: UploadOptions())
        let requests = cloud.server.requests()
        #expect(Self.chunkPUTs(requests) == ["4", "5", "6"])
        #expect(requests.contains { $0.method == "PROPFIND" && $0.path.contains("/remote.php/dav/uploads/") })
        let move = try #require(requests.first { $0.method == "MOVE" && $0.path.hasSuffix("/.file") })
        #expect(move.header("OC-Total-Length") == String(bytes.count))
        #expect(move.header("OC-Checksum") == "SHA1:" + (Digester.hex(.sha1, of: bytes) ?? ""))
        #expect(move.header("Destination")?.hasSuffix("/remote.php/dav/files/alice/\(folder)/big.bin") == true)
        #expect(item.size == Int64(bytes.count))
        #expect(item.digests[.sha1] == Digester.hex(.sha1, of: bytes))
        #expect(cloud.server.contents(user: LoopbackNextcloud.user, path: "\(folder)/big.bin") == Data(bytes))
        let sink = MemorySink(limit: 1 << 20)
        _ = try await provider.download("/big.bin", to: sink, options: DownloadOptions())
        #expect(await sink.bytes == bytes)
    }

    @Test("with retries allowed, a chunk whose answer was lost is sent again within the same upload")
    func retriedChunk() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (provider, folder) = try await cloud.scratch(options: Self.chunkOptions)
        let bytes = patternBytes(3 * (64 << 10) + 5)
        cloud.server.resetRequests()
        cloud.server.faults.dropConnectionAfterChunks = 1
        let item = try await provider.upload(DataSource(bytes: bytes), to: .root, name: "again.bin", options: UploadOptions())
        #expect(Self.chunkPUTs(cloud.server.requests()) == ["1", "2", "2", "3", "4"])
        #expect(item.size == Int64(bytes.count))
        #expect(cloud.server.contents(user: LoopbackNextcloud.user, path: "\(folder)/again.bin") == Data(bytes))
    }

    @Test("a chunk corrupted on the server is caught by the checksum: nothing under the final name, the upload folder removed")
    func corruptedChunk() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (provider, folder) = try await cloud.scratch(options: Self.chunkOptions)
        let bytes = patternBytes(3 * (64 << 10))
        cloud.server.faults.corruptNextChunkChecksum()
        cloud.server.resetRequests()
        do {
            _ = try await provider.upload(DataSource(bytes: bytes), to: .root, name: "bad.bin", options: UploadOptions())
            Issue.record("the upload of a corrupted chunk succeeded")
        } catch let error as ProviderError {
            #expect(error.code == .integrity, "\(error)")
        }
        #expect(try await provider.itemIfExists(at: "/bad.bin") == nil)
        #expect(cloud.server.contents(user: LoopbackNextcloud.user, path: "\(folder)/bad.bin") == nil)
        let requests = cloud.server.requests()
        let uploadFolder = try #require(requests.first { $0.method == "MKCOL" && $0.path.contains("/uploads/") }?.path)
        #expect(requests.contains { $0.method == "DELETE" && $0.path.hasPrefix(uploadFolder.trimmingSuffix("/")) })
        // A second attempt starts over and succeeds.
        let item = try await provider.upload(DataSource(bytes: bytes), to: .root, name: "bad.bin", options: UploadOptions())
        #expect(item.digests[.sha1] == Digester.hex(.sha1, of: bytes))
    }

    @Test("without chunking on the server a large file goes in one PUT with OC-Checksum")
    func singlePutFallback() async throws {
        let cloud = try await LoopbackNextcloud.start(chunking: false)
        defer { Task { await cloud.stop() } }
        let (provider, folder) = try await cloud.scratch(options: Self.chunkOptions)
        let bytes = patternBytes(300 << 10)
        cloud.server.resetRequests()
        let item = try await provider.upload(DataSource(bytes: bytes), to: .root, name: "one.bin", options: UploadOptions())
        let requests = cloud.server.requests()
        #expect(Self.chunkPUTs(requests).isEmpty)
        let put = try #require(requests.first { $0.method == "PUT" })
        #expect(put.header("OC-Checksum") == "SHA1:" + (Digester.hex(.sha1, of: bytes) ?? ""))
        #expect(item.size == Int64(bytes.count))
        #expect(cloud.server.contents(user: LoopbackNextcloud.user, path: "\(folder)/one.bin") == Data(bytes))
    }

    @Test("a cancelled chunked upload removes its upload folder")
    func cancelCleansUp() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (provider, _) = try await cloud.scratch(options: Self.chunkOptions)
        let bytes = patternBytes(64 * (64 << 10))
        cloud.server.resetRequests()
        let (stream, continuation) = AsyncStream<Int64>.makeStream()
        let task = Task {
            try await provider.upload(
                DataSource(bytes: bytes), to: .root, name: "gone.bin",
                options: UploadOptions(progress: { continuation.yield($0.completed) }))
        }
        for await done in stream where done >= 2 * (64 << 10) {
            task.cancel()
            break
        }
        let result = await task.result
        #expect(throws: ProviderError.self) { try result.get() }
        let requests = cloud.server.requests()
        let made = try #require(requests.first { $0.method == "MKCOL" && $0.path.contains("/uploads/") }?.path)
        #expect(requests.contains { $0.method == "DELETE" && $0.path.hasPrefix(made.trimmingSuffix("/")) })
        #expect(try await provider.itemIfExists(at: "/gone.bin") == nil)
    }
}

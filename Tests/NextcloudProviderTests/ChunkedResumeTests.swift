import Foundation
import HTTPProviderKit
import NextcloudTestServer
import ProviderAPI
import ProviderKit
import StrataTestSupport
import Testing
import WebDAVProvider

/// Chunking v2 uploads cut off part way and resumed from an upload checkpoint: the upload folder
/// is listed, its chunks checked against the record, and only the rest is read from the source's
/// offset and sent; the SHA-1 recorded with the session spares reading the content twice.
@Suite("resumed chunked uploads on the loopback Nextcloud server")
struct ChunkedResumeTests {
    static let chunk = 64 << 10
    /// 11 chunks, the last one short.
    static let size = 10 * chunk + 1000

    static func meter() -> ChunkMeter {
        ChunkMeter { $0.method.rawValue == "PUT" && $0.url.path.contains("/remote.php/dav/uploads/") }
    }

    /// A fresh folder and a provider rooted there, sending through `meter`, keeping sessions in `store`.
    static func provider(_ cloud: LoopbackNextcloud, meter: ChunkMeter, store: any UploadCheckpoints) async throws -> WebDAVProvider {
        let root = try await cloud.provider()
        let name = "t-\(UInt32.random(in: 0...UInt32.max))"
        _ = try await root.createFolder(named: name, in: .root)
        var configuration = cloud.configuration(
            folder: name, options: ["chunkSize": String(chunk), "chunkThreshold": String(2 * chunk)], transport: meter.transport,
            retry: .none)
        configuration.services.uploadCheckpoints = store
        return try await OwnCloudProviderFactory.connect(configuration, flavor: cloud.flavor)
    }

    static func cutUpload(_ provider: WebDAVProvider, _ source: OffsetSource, key: String) async {
        let error = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(source, to: .root, name: "big.bin", options: UploadOptions(resumeKey: key))
        }
        #expect(error?.code == .network, "\(String(describing: error))")
    }

    static func content(_ provider: WebDAVProvider) async throws -> [UInt8] {
        let sink = MemorySink(limit: 4 << 20)
        _ = try await provider.download("/big.bin", to: sink, options: DownloadOptions())
        return await sink.bytes
    }

    @Test("an upload cut after 4 of 11 chunks resumes with the 7 missing, read once from the source's offset; no checkpoint is left")
    func resumes() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let meter = Self.meter()
        let store = InMemoryUploadCheckpoints()
        let provider = try await Self.provider(cloud, meter: meter, store: store)
        let bytes = patternBytes(Self.size, seed: 3)
        meter.cut(after: 4)
        await Self.cutUpload(provider, OffsetSource(bytes), key: "source-1")
        #expect(meter.chunks == 4)
        #expect(await store.all.count == 1)
        #expect(cloud.server.uploads(user: LoopbackNextcloud.user).count == 1)

        meter.reset()
        let again = OffsetSource(bytes)
        let item = try await provider.upload(again, to: .root, name: "big.bin", options: UploadOptions(resumeKey: "source-1"))
        let resumedAt = Int64(4 * Self.chunk)
        #expect(meter.chunks == 7)
        #expect(meter.bytes == Int64(Self.size) - resumedAt)
        // Read once, from the offset: neither spooled nor read for its SHA-1 first.
        #expect(again.offsets == [resumedAt])
        #expect(again.bytesRead == Int64(Self.size) - resumedAt)
        #expect(item.digests[.sha1] == Digester.hex(.sha1, of: bytes))
        #expect(try await Self.content(provider) == bytes)
        #expect(await store.all.isEmpty)
        #expect(cloud.server.uploads(user: LoopbackNextcloud.user).isEmpty)
    }

    @Test("a checkpoint whose upload folder the server removed starts over, and the upload still succeeds")
    func forgottenFolder() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let meter = Self.meter()
        let store = InMemoryUploadCheckpoints()
        let provider = try await Self.provider(cloud, meter: meter, store: store)
        let bytes = patternBytes(Self.size, seed: 4)
        meter.cut(after: 3)
        await Self.cutUpload(provider, OffsetSource(bytes), key: "source-1")
        cloud.server.expireUploads()

        meter.reset()
        let again = OffsetSource(bytes)
        _ = try await provider.upload(again, to: .root, name: "big.bin", options: UploadOptions(resumeKey: "source-1"))
        #expect(meter.chunks == 11)
        #expect(again.offsets == [0])
        #expect(try await Self.content(provider) == bytes)
        #expect(await store.all.isEmpty)
    }

    @Test("a checkpoint whose chunks the server reports with other sizes is dropped: the folder deleted, everything sent again")
    func inconsistentFolder() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let meter = Self.meter()
        let store = InMemoryUploadCheckpoints()
        let provider = try await Self.provider(cloud, meter: meter, store: store)
        let bytes = patternBytes(Self.size, seed: 8)
        meter.cut(after: 3)
        await Self.cutUpload(provider, OffsetSource(bytes), key: "source-1")
        // The record now says 32 KiB chunks: the 64 KiB chunks the server holds do not fit it.
        let record = try #require(await store.all.first)
        var state = try #require(try JSONSerialization.jsonObject(with: record.state) as? [String: Any])
        state["chunkSize"] = Self.chunk / 2
        var changed = record
        changed.state = try JSONSerialization.data(withJSONObject: state)
        await store.save(changed)

        meter.reset()
        let again = OffsetSource(bytes)
        _ = try await provider.upload(again, to: .root, name: "big.bin", options: UploadOptions(resumeKey: "source-1"))
        #expect(meter.chunks == 11)
        #expect(again.offsets == [0])
        #expect(try await Self.content(provider) == bytes)
        #expect(await store.all.isEmpty)
        #expect(cloud.server.uploads(user: LoopbackNextcloud.user).isEmpty)
    }

    @Test("another source (another key) to the same destination never reuses the session: all of it is sent, the old folder deleted")
    func otherKey() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let meter = Self.meter()
        let store = InMemoryUploadCheckpoints()
        let provider = try await Self.provider(cloud, meter: meter, store: store)
        meter.cut(after: 5)
        await Self.cutUpload(provider, OffsetSource(patternBytes(Self.size, seed: 5)), key: "source-1")

        meter.reset()
        let other = patternBytes(Self.size, seed: 6)
        let source = OffsetSource(other)
        _ = try await provider.upload(source, to: .root, name: "big.bin", options: UploadOptions(resumeKey: "source-2"))
        #expect(meter.chunks == 11)
        #expect(try await Self.content(provider) == other)
        #expect(await store.all.isEmpty)
        #expect(cloud.server.uploads(user: LoopbackNextcloud.user).isEmpty)
    }
}

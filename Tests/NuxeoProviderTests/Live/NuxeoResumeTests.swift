import Foundation
import HTTPProviderKit
import NuxeoProvider
import ProviderAPI
import ProviderTesting
import StrataTestSupport
import Testing

/// Uploads cut off part way and resumed from an upload checkpoint: the batch the server kept is
/// asked what it holds, and only the chunks missing are read from the source and sent.
@Suite("resumed chunked uploads on the loopback Nuxeo server")
struct NuxeoResumeTests {
    static let chunk = 64 << 10
    /// 11 chunks, the last one short.
    static let size = 10 * chunk + 1000

    /// A fresh folder and a provider rooted there, sending through `meter`, keeping sessions in `store`.
    static func provider(_ nuxeo: LoopbackNuxeo, meter: ChunkMeter, store: any UploadCheckpoints) async throws -> NuxeoProvider {
        let root = try await nuxeo.provider()
        let name = "t-\(UInt32.random(in: 0...UInt32.max))"
        _ = try await root.createFolder(named: name, in: .root)
        var configuration = nuxeo.configuration(
            root: LoopbackNuxeo.workspace + "/" + name, options: ["chunkSize": String(chunk)], transport: meter.transport, retry: .none)
        configuration.services.uploadCheckpoints = store
        return try await NuxeoProvider.connect(configuration)
    }

    static func meter() -> ChunkMeter {
        ChunkMeter { $0.method.rawValue == "POST" && $0.headers.first(name: "X-Upload-Type") == "chunked" }
    }

    /// Uploads `source` as `big.bin` with `key`, expecting the cut to stop it with a network error.
    static func cutUpload(_ provider: NuxeoProvider, _ source: OffsetSource, key: String) async {
        let error = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(source, to: .root, name: "big.bin", options: UploadOptions(resumeKey: key))
        }
        #expect(error?.code == .network, "\(String(describing: error))")
    }

    static func content(_ provider: NuxeoProvider) async throws -> [UInt8] {
        let sink = MemorySink(limit: 4 << 20)
        _ = try await provider.download("/big.bin", to: sink, options: DownloadOptions())
        return await sink.bytes
    }

    @Test("an upload cut after 4 of 11 chunks resumes with the 7 missing, read from the source's offset; no checkpoint is left")
    func resumes() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let meter = Self.meter()
        let store = InMemoryUploadCheckpoints()
        let provider = try await Self.provider(nuxeo, meter: meter, store: store)
        let bytes = patternBytes(Self.size, seed: 3)
        meter.cut(after: 4)
        await Self.cutUpload(provider, OffsetSource(bytes), key: "source-1")
        #expect(meter.chunks == 4)
        #expect(await store.all.count == 1)

        meter.reset()
        #expect(try await provider.itemIfExists(at: "/big.bin") == nil)
        meter.reset()
        let again = OffsetSource(bytes)
        let item = try await provider.upload(again, to: .root, name: "big.bin", options: UploadOptions(resumeKey: "source-1"))
        let resumedAt = Int64(4 * Self.chunk)
        #expect(meter.chunks == 7)
        #expect(meter.bytes == Int64(Self.size) - resumedAt)
        #expect(again.offsets == [resumedAt])
        #expect(again.bytesRead == Int64(Self.size) - resumedAt)
        #expect(item.size == Int64(Self.size))
        #expect(try await Self.content(provider) == bytes)
        #expect(await store.all.isEmpty)
        #expect(nuxeo.server.batchCount() == 0)
    }

    @Test("a checkpoint whose batch the server forgot starts over, and the upload still succeeds")
    func forgottenBatch() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let meter = Self.meter()
        let store = InMemoryUploadCheckpoints()
        let provider = try await Self.provider(nuxeo, meter: meter, store: store)
        let bytes = patternBytes(Self.size, seed: 4)
        meter.cut(after: 3)
        await Self.cutUpload(provider, OffsetSource(bytes), key: "source-1")
        nuxeo.server.expireBatches()

        meter.reset()
        let again = OffsetSource(bytes)
        _ = try await provider.upload(again, to: .root, name: "big.bin", options: UploadOptions(resumeKey: "source-1"))
        #expect(meter.chunks == 11)
        #expect(again.offsets == [0])
        #expect(try await Self.content(provider) == bytes)
        #expect(await store.all.isEmpty)
    }

    @Test("another source (another key) to the same destination never reuses the session: all of it is sent, the old batch dropped")
    func otherKey() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let meter = Self.meter()
        let store = InMemoryUploadCheckpoints()
        let provider = try await Self.provider(nuxeo, meter: meter, store: store)
        meter.cut(after: 5)
        await Self.cutUpload(provider, OffsetSource(patternBytes(Self.size, seed: 5)), key: "source-1")
        #expect(nuxeo.server.batchCount() == 1)

        meter.reset()
        let other = patternBytes(Self.size, seed: 6)
        let source = OffsetSource(other)
        _ = try await provider.upload(source, to: .root, name: "big.bin", options: UploadOptions(resumeKey: "source-2"))
        #expect(meter.chunks == 11)
        #expect(source.offsets == [0])
        #expect(try await Self.content(provider) == other)
        #expect(await store.all.isEmpty)
        #expect(nuxeo.server.batchCount() == 0)
    }

    @Test("without a resume key nothing is recorded")
    func noKey() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let meter = Self.meter()
        let store = InMemoryUploadCheckpoints()
        let provider = try await Self.provider(nuxeo, meter: meter, store: store)
        meter.cut(after: 2)
        let error = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(OffsetSource(patternBytes(Self.size)), to: .root, name: "big.bin", options: UploadOptions())
        }
        #expect(error?.code == .network)
        #expect(await store.all.isEmpty)
    }
}

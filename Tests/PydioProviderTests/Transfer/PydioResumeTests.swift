import Foundation
import HTTPProviderKit
import ProviderAPI
import PydioProvider
import StrataTestSupport
import Testing

/// Uploads in parts cut off part way and resumed from an upload checkpoint: the `.dlpart` the
/// server holds is looked at, and only the parts after it are read from the source's offset and appended.
@Suite("resumed uploads in parts on the loopback Pydio server")
struct PydioResumeTests {
    static let chunk = 64 << 10
    /// 11 parts, the last one short.
    static let size = 10 * chunk + 1000

    static func meter() -> ChunkMeter {
        ChunkMeter { $0.url.query?.contains("partial_upload=true") == true }
    }

    /// A fresh folder and a provider rooted there, sending through `meter`, keeping sessions in `store`.
    static func provider(_ pydio: LoopbackPydio, meter: ChunkMeter, store: any UploadCheckpoints) async throws -> PydioProvider {
        let root = try await PydioProvider.connect(pydio.configuration())
        let name = "t-\(UInt32.random(in: 0...UInt32.max))"
        _ = try await root.createFolder(named: name, in: .root)
        var configuration = pydio.configuration(folder: name, options: ["chunkSize": String(chunk)], transport: meter.transport, retry: .none)
        configuration.services.uploadCheckpoints = store
        return try await PydioProvider.connect(configuration)
    }

    static func cutUpload(_ provider: PydioProvider, _ source: OffsetSource, key: String) async {
        let error = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(source, to: .root, name: "big.bin", options: UploadOptions(resumeKey: key))
        }
        #expect(error?.code == .network, "\(String(describing: error))")
    }

    static func content(_ provider: PydioProvider) async throws -> [UInt8] {
        let sink = MemorySink(limit: 4 << 20)
        _ = try await provider.download("/big.bin", to: sink, options: DownloadOptions())
        return await sink.bytes
    }

    @Test("an upload cut after 4 of 11 parts resumes with the 7 missing, read from the source's offset; no checkpoint is left")
    func resumes() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let meter = Self.meter()
        let store = InMemoryUploadCheckpoints()
        let provider = try await Self.provider(pydio, meter: meter, store: store)
        let bytes = patternBytes(Self.size, seed: 3)
        meter.cut(after: 4)
        await Self.cutUpload(provider, OffsetSource(bytes), key: "source-1")
        #expect(meter.chunks == 4)
        #expect(await store.all.count == 1)

        meter.reset()
        #expect(try await provider.item(at: "/big.bin.dlpart").size == Int64(4 * Self.chunk))
        meter.reset()
        let again = OffsetSource(bytes)
        let item = try await provider.upload(again, to: .root, name: "big.bin", options: UploadOptions(resumeKey: "source-1"))
        let resumedAt = Int64(4 * Self.chunk)
        #expect(meter.chunks == 7)
        #expect(again.offsets == [resumedAt])
        #expect(again.bytesRead == Int64(Self.size) - resumedAt)
        #expect(item.size == Int64(Self.size))
        #expect(try await Self.content(provider) == bytes)
        #expect(await store.all.isEmpty)
        #expect(try await provider.itemIfExists(at: "/big.bin.dlpart") == nil)
    }

    @Test("a checkpoint whose .dlpart is gone starts over, and the upload still succeeds")
    func forgottenPart() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let meter = Self.meter()
        let store = InMemoryUploadCheckpoints()
        let provider = try await Self.provider(pydio, meter: meter, store: store)
        let bytes = patternBytes(Self.size, seed: 4)
        meter.cut(after: 3)
        await Self.cutUpload(provider, OffsetSource(bytes), key: "source-1")
        meter.reset()
        try await provider.delete("/big.bin.dlpart")

        meter.reset()
        let again = OffsetSource(bytes)
        _ = try await provider.upload(again, to: .root, name: "big.bin", options: UploadOptions(resumeKey: "source-1"))
        #expect(meter.chunks == 11)
        #expect(again.offsets == [0])
        #expect(try await Self.content(provider) == bytes)
        #expect(await store.all.isEmpty)
    }

    @Test("a .dlpart of another size than the record allows is not appended to: the upload starts over")
    func unexpectedSize() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let meter = Self.meter()
        let store = InMemoryUploadCheckpoints()
        let provider = try await Self.provider(pydio, meter: meter, store: store)
        let bytes = patternBytes(Self.size, seed: 9)
        meter.cut(after: 2)
        await Self.cutUpload(provider, OffsetSource(bytes), key: "source-1")
        meter.reset()
        // Someone else's bytes in the .dlpart: 3 parts where the record allows 2 or 3... so 5.
        _ = try await provider.upload(
            DataSource(bytes: patternBytes(5 * Self.chunk, seed: 1)), to: .root, name: "big.bin.dlpart", options: UploadOptions())

        meter.reset()
        let again = OffsetSource(bytes)
        _ = try await provider.upload(again, to: .root, name: "big.bin", options: UploadOptions(resumeKey: "source-1"))
        #expect(meter.chunks == 11)
        #expect(again.offsets == [0])
        #expect(try await Self.content(provider) == bytes)
        #expect(await store.all.isEmpty)
    }

    @Test("another source (another key) to the same destination never reuses the session: all of it is sent")
    func otherKey() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let meter = Self.meter()
        let store = InMemoryUploadCheckpoints()
        let provider = try await Self.provider(pydio, meter: meter, store: store)
        meter.cut(after: 5)
        await Self.cutUpload(provider, OffsetSource(patternBytes(Self.size, seed: 5)), key: "source-1")

        meter.reset()
        let other = patternBytes(Self.size, seed: 6)
        let source = OffsetSource(other)
        _ = try await provider.upload(source, to: .root, name: "big.bin", options: UploadOptions(resumeKey: "source-2"))
        #expect(meter.chunks == 11)
        #expect(source.offsets == [0])
        #expect(try await Self.content(provider) == other)
        #expect(await store.all.isEmpty)
    }
}

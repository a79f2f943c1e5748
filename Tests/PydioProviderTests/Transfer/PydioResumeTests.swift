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

    /// A provider rooted in a fresh folder, its part uploads metered.
    static func scenario(_ pydio: LoopbackPydio) async throws -> ResumeScenario {
        try await ResumeScenario.start(chunk: chunk, isChunk: { $0.url.query?.contains("partial_upload=true") == true }) {
            transport, store in
            let root = try await PydioProvider.connect(pydio.configuration())
            let name = "t-\(UInt32.random(in: 0...UInt32.max))"
            _ = try await root.createFolder(named: name, in: .root)
            var configuration = pydio.configuration(folder: name, options: ["chunkSize": String(chunk)], transport: transport, retry: .none)
            configuration.services.uploadCheckpoints = store
            return try await PydioProvider.connect(configuration)
        }
    }

    @Test("an upload cut after 4 of 11 parts resumes with the 7 missing, read from the source's offset; no checkpoint is left")
    func resumes() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let upload = try await Self.scenario(pydio)
        let bytes = patternBytes(Self.size, seed: 3)
        await upload.cut(bytes, after: 4)

        upload.meter.reset()
        #expect(try await upload.provider.item(at: "/big.bin.dlpart").size == Int64(4 * Self.chunk))
        // Each part is a multipart form: its body is more than the part's bytes.
        let item = try await upload.resume(bytes, cutAfter: 4, bareBodies: false)
        #expect(item.size == Int64(Self.size))
        #expect(try await upload.provider.itemIfExists(at: "/big.bin.dlpart") == nil)
    }

    @Test("a checkpoint whose .dlpart is gone starts over, and the upload still succeeds")
    func forgottenPart() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let upload = try await Self.scenario(pydio)
        let bytes = patternBytes(Self.size, seed: 4)
        await upload.cut(bytes, after: 3)
        upload.meter.reset()
        try await upload.provider.delete("/big.bin.dlpart")

        try await upload.sendsAll(bytes, key: "source-1")
    }

    @Test("a .dlpart of another size than the record allows is not appended to: the upload starts over")
    func unexpectedSize() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let upload = try await Self.scenario(pydio)
        let bytes = patternBytes(Self.size, seed: 9)
        await upload.cut(bytes, after: 2)
        upload.meter.reset()
        // Someone else's bytes in the .dlpart: 3 parts where the record allows 2 or 3... so 5.
        _ = try await upload.provider.upload(
            DataSource(bytes: patternBytes(5 * Self.chunk, seed: 1)), to: .root, name: "big.bin.dlpart", options: UploadOptions())

        try await upload.sendsAll(bytes, key: "source-1")
    }

    @Test("another source (another key) to the same destination never reuses the session: all of it is sent")
    func otherKey() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let upload = try await Self.scenario(pydio)
        await upload.cut(patternBytes(Self.size, seed: 5), after: 5)

        try await upload.sendsAll(patternBytes(Self.size, seed: 6), key: "source-2")
    }
}

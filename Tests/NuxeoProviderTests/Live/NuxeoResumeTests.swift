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

    /// A provider rooted in a fresh folder, its chunk uploads metered.
    static func scenario(_ nuxeo: LoopbackNuxeo) async throws -> ResumeScenario {
        try await ResumeScenario.start(
            chunk: chunk, isChunk: { $0.method.rawValue == "POST" && $0.headers.first(name: "X-Upload-Type") == "chunked" }
        ) { transport, store in
            let root = try await nuxeo.provider()
            let name = "t-\(UInt32.random(in: 0...UInt32.max))"
            _ = try await root.createFolder(named: name, in: .root)
            var configuration = nuxeo.configuration(
                root: LoopbackNuxeo.workspace + "/" + name, options: ["chunkSize": String(chunk)], transport: transport, retry: .none)
            configuration.services.uploadCheckpoints = store
            return try await NuxeoProvider.connect(configuration)
        }
    }

    @Test("an upload cut after 4 of 11 chunks resumes with the 7 missing, read from the source's offset; no checkpoint is left")
    func resumes() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let upload = try await Self.scenario(nuxeo)
        let bytes = patternBytes(Self.size, seed: 3)
        await upload.cut(bytes, after: 4)

        upload.meter.reset()
        #expect(try await upload.provider.itemIfExists(at: "/big.bin") == nil)
        let item = try await upload.resume(bytes, cutAfter: 4)
        #expect(item.size == Int64(Self.size))
        #expect(nuxeo.server.batchCount() == 0)
    }

    @Test("a checkpoint whose batch the server forgot starts over, and the upload still succeeds")
    func forgottenBatch() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let upload = try await Self.scenario(nuxeo)
        let bytes = patternBytes(Self.size, seed: 4)
        await upload.cut(bytes, after: 3)
        nuxeo.server.expireBatches()

        try await upload.sendsAll(bytes, key: "source-1")
    }

    @Test("another source (another key) to the same destination never reuses the session: all of it is sent, the old batch dropped")
    func otherKey() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let upload = try await Self.scenario(nuxeo)
        await upload.cut(patternBytes(Self.size, seed: 5), after: 5)
        #expect(nuxeo.server.batchCount() == 1)

        try await upload.sendsAll(patternBytes(Self.size, seed: 6), key: "source-2")
        #expect(nuxeo.server.batchCount() == 0)
    }

    @Test("without a resume key nothing is recorded")
    func noKey() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let upload = try await Self.scenario(nuxeo)
        upload.meter.cut(after: 2)
        let error = await #expect(throws: ProviderError.self) {
            _ = try await upload.provider.upload(
                OffsetSource(patternBytes(Self.size)), to: .root, name: "big.bin", options: UploadOptions())
        }
        #expect(error?.code == .network)
        #expect(await upload.store.all.isEmpty)
    }
}

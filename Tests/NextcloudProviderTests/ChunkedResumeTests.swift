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

    /// A provider rooted in a fresh folder, its chunk uploads metered.
    static func scenario(_ cloud: LoopbackNextcloud) async throws -> ResumeScenario {
        try await ResumeScenario.start(
            chunk: chunk, isChunk: { $0.method.rawValue == "PUT" && $0.url.path.contains("/remote.php/dav/uploads/") }
        ) { transport, store in
            let root = try await cloud.provider()
            let name = "t-\(UInt32.random(in: 0...UInt32.max))"
            _ = try await root.createFolder(named: name, in: .root)
            var configuration = cloud.configuration(
                folder: name, options: ["chunkSize": String(chunk), "chunkThreshold": String(2 * chunk)], transport: transport,
                retry: .none)
            configuration.services.uploadCheckpoints = store
            return try await OwnCloudProviderFactory.connect(configuration, flavor: cloud.flavor)
        }
    }

    @Test("an upload cut after 4 of 11 chunks resumes with the 7 missing, read once from the source's offset; no checkpoint is left")
    func resumes() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let upload = try await Self.scenario(cloud)
        let bytes = patternBytes(Self.size, seed: 3)
        await upload.cut(bytes, after: 4)
        #expect(cloud.server.uploads(user: LoopbackNextcloud.user).count == 1)

        let item = try await upload.resume(bytes, cutAfter: 4)
        #expect(item.digests[.sha1] == Digester.hex(.sha1, of: bytes))
        #expect(cloud.server.uploads(user: LoopbackNextcloud.user).isEmpty)
    }

    @Test("a checkpoint whose upload folder the server removed starts over, and the upload still succeeds")
    func forgottenFolder() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let upload = try await Self.scenario(cloud)
        let bytes = patternBytes(Self.size, seed: 4)
        await upload.cut(bytes, after: 3)
        cloud.server.expireUploads()

        try await upload.sendsAll(bytes, key: "source-1")
    }

    @Test("a checkpoint whose chunks the server reports with other sizes is dropped: the folder deleted, everything sent again")
    func inconsistentFolder() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let upload = try await Self.scenario(cloud)
        let bytes = patternBytes(Self.size, seed: 8)
        await upload.cut(bytes, after: 3)
        // The record now says 32 KiB chunks: the 64 KiB chunks the server holds do not fit it.
        let record = try #require(await upload.store.all.first)
        var state = try #require(try JSONSerialization.jsonObject(with: record.state) as? [String: Any])
        state["chunkSize"] = Self.chunk / 2
        var changed = record
        changed.state = try JSONSerialization.data(withJSONObject: state)
        await upload.store.save(changed)

        try await upload.sendsAll(bytes, key: "source-1")
        #expect(cloud.server.uploads(user: LoopbackNextcloud.user).isEmpty)
    }

    @Test("another source (another key) to the same destination never reuses the session: all of it is sent, the old folder deleted")
    func otherKey() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let upload = try await Self.scenario(cloud)
        await upload.cut(patternBytes(Self.size, seed: 5), after: 5)

        try await upload.sendsAll(patternBytes(Self.size, seed: 6), key: "source-2")
        #expect(cloud.server.uploads(user: LoopbackNextcloud.user).isEmpty)
    }
}

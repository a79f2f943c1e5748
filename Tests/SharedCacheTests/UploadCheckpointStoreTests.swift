import Foundation
import ProviderAPI
import SharedCache
import Testing

@Suite("upload checkpoints in the cache database")
struct UploadCheckpointStoreTests {
    @Test("a record is kept per account and destination, replaced, seen by a second store on the folder, and removed")
    func roundTrip() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-checkpoints-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try CacheStore(directory: folder)
        #expect(try await store.checkpoint(account: "nuxeo:ann@h", destination: "/a.bin") == nil)
        let first = UploadCheckpoint(
            account: "nuxeo:ann@h", destination: "/a.bin", resumeKey: "k1", format: "f.v1", state: Data("{\"n\":1}".utf8))
        try await store.save(first)
        try await store.save(UploadCheckpoint(account: "nuxeo:ann@h", destination: "/b.bin", resumeKey: "k2", format: "f.v1", state: Data()))
        var second = first
        second.resumeKey = "k3"
        second.state = Data("{\"n\":2}".utf8)
        try await store.save(second)
        let read = try #require(try await store.checkpoint(account: "nuxeo:ann@h", destination: "/a.bin"))
        #expect(read.resumeKey == "k3" && read.state == second.state && read.format == "f.v1")
        #expect(try await store.uploadCheckpoints().count == 2)

        let other = try CacheStore(directory: folder)
        #expect(try await other.checkpoint(account: "nuxeo:ann@h", destination: "/a.bin")?.resumeKey == "k3")
        try await other.removeCheckpoint(account: "nuxeo:ann@h", destination: "/a.bin")
        #expect(try await store.checkpoint(account: "nuxeo:ann@h", destination: "/a.bin") == nil)
        #expect(try await store.uploadCheckpoints().map(\.destination) == ["/b.bin"])
    }
}

import Foundation
import NIOCore
import ProviderAPI
import PydioProvider
import PydioTestServer
import Testing

/// A file a listing described is downloaded without being looked at first, and the answer is
/// held to what the listing said (size, modified time, an attachment): another file there since
/// is looked at and read as it is now, never as the listed one.
@Suite("Pydio reads of listed files")
struct PydioListedReadTests {
    /// A provider that listed `/d` with `a.txt` (`"first"`) in it, and another on the same folder.
    static func listed(_ pydio: LoopbackPydio) async throws -> (reader: PydioProvider, other: PydioProvider) {
        let name = "t-\(UInt32.random(in: 0...UInt32.max))"
        _ = try await PydioProvider.connect(pydio.configuration()).createFolder(named: name, in: .root)
        let other = try await PydioProvider.connect(pydio.configuration(folder: name))
        _ = try await other.createFolder(named: "d", in: .root)
        _ = try await other.upload(DataSource(string: "first"), to: "/d", name: "a.txt", options: UploadOptions())
        let reader = try await PydioProvider.connect(pydio.configuration(folder: name))
        #expect(try await reader.listAll("/d").map(\.name) == ["a.txt"])
        return (reader, other)
    }

    @Test("a listed file is one download request; the next read of it looks at it again")
    func oneRequest() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let (reader, _) = try await Self.listed(pydio)
        pydio.server.resetRequests()
        let result = try await reader.download("/d/a.txt", to: MemorySink(), options: DownloadOptions())
        #expect(pydio.server.requests().map(\.action) == ["download"])
        #expect(result.item.size == 5)
        pydio.server.resetRequests()
        _ = try await reader.download("/d/a.txt", to: MemorySink(), options: DownloadOptions())
        #expect(pydio.server.requests().map(\.action) == ["ls", "download"])
    }

    @Test("a file rewritten since the listing, at another size, is read as it is now, and the refused answer reached no sink")
    func changedSinceListed() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let (reader, other) = try await Self.listed(pydio)
        _ = try await other.upload(DataSource(string: "second, longer"), to: "/d", name: "a.txt", options: UploadOptions(conflict: .overwrite))
        let sink = BeginCountingSink()
        let result = try await reader.download("/d/a.txt", to: sink, options: DownloadOptions())
        #expect(await sink.received == Array("second, longer".utf8))
        #expect(await sink.begins == 1)
        #expect(result.item.size == 14)
    }

    @Test("a listed file replaced by a folder is refused as a folder; one deleted is notFound")
    func folderOrGoneSinceListed() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let (reader, other) = try await Self.listed(pydio)
        _ = try await other.upload(DataSource(string: "b"), to: "/d", name: "b.txt", options: UploadOptions())
        #expect(try await reader.listAll("/d").count == 2)
        try await other.delete("/d/a.txt")
        _ = try await other.createFolder(named: "a.txt", in: "/d")
        _ = try await other.upload(DataSource(string: "inside"), to: "/d/a.txt", name: "x", options: UploadOptions())
        try await other.delete("/d/b.txt")
        let folder = await #expect(throws: ProviderError.self) {
            _ = try await reader.download("/d/a.txt", to: MemorySink(), options: DownloadOptions())
        }
        #expect(folder?.code == .invalidArgument, "\(String(describing: folder))")
        let gone = await #expect(throws: ProviderError.self) {
            _ = try await reader.download("/d/b.txt", to: MemorySink(), options: DownloadOptions())
        }
        #expect(gone?.code == .notFound, "\(String(describing: gone))")
    }
}

/// A sink that keeps what it was given and counts its `begin` calls.
actor BeginCountingSink: DownloadSink {
    private(set) var received: [UInt8] = []
    private(set) var begins = 0

    func resumePoint() async throws -> ResumePoint? { nil }
    func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws {
        begins += 1
        received.removeAll()
    }
    func write(_ buffer: ByteBuffer) async throws { received += buffer.readableBytesView }
    func finish() async throws {}
    func fail() async {}
}

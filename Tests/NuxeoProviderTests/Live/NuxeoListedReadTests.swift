import Foundation
import NIOCore
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import ProviderKit
import Testing
import HTTPProviderKit

/// A file a listing named is read by the uid the listing gave, in one request, and the answer is
/// held to what the listing said: a document replaced or deleted since is never read as the
/// listed one.
@Suite("Nuxeo reads of listed files on the loopback server")
struct NuxeoListedReadTests {
    /// A folder `/d` with `a.txt` (`"first"`) in it, listed by the provider returned; and another
    /// provider on the same root, for the changes the first does not see.
    static func listed(_ nuxeo: LoopbackNuxeo) async throws -> (reader: NuxeoProvider, other: NuxeoProvider, listing: [Item]) {
        let name = "t-\(UInt32.random(in: 0...UInt32.max))"
        let workspace = try await nuxeo.provider()
        _ = try await workspace.createFolder(named: name, in: .root)
        let root = LoopbackNuxeo.workspace + "/" + name
        let other = try await nuxeo.provider(root: root)
        _ = try await other.createFolder(named: "d", in: .root)
        _ = try await other.upload(DataSource(string: "first"), to: "/d", name: "a.txt", options: UploadOptions())
        let reader = try await nuxeo.provider(root: root)
        let listing = try await reader.listAll("/d")
        return (reader, other, listing)
    }

    /// The blob reads and document look-ups (by uid, by path, by search) in `requests`.
    static func counted(_ requests: [RecordedRequest]) -> (blobs: Int, lookups: Int) {
        let lookups = NuxeoRequestCountTests.lookups(requests)
        return (requests.filter { $0.path.contains("/@blob/") }.count, lookups.byPath + lookups.byId + lookups.searches)
    }

    @Test("a listed file is read with one request, its blob by uid, and the result is the listed item")
    func oneRequest() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let (reader, _, listing) = try await Self.listed(nuxeo)
        nuxeo.server.resetRequests()
        let sink = CountingSink()
        let result = try await reader.download("/d/a.txt", to: sink, options: DownloadOptions())
        #expect(await sink.received == Array("first".utf8))
        let requests = nuxeo.server.requests()
        #expect(requests.count == 1, "\(requests.map { "\($0.method) \($0.path)" })")
        #expect(Self.counted(requests).blobs == 1)
        #expect(result.item.id == listing.first?.id && result.item.etag == listing.first?.etag)
        // The listing's word is used once: the next read of the path looks the document up again.
        nuxeo.server.resetRequests()
        _ = try await reader.download("/d/a.txt", to: CountingSink(), options: DownloadOptions())
        #expect(Self.counted(nuxeo.server.requests()) == (blobs: 1, lookups: 1))
    }

    @Test("a document whose content was replaced since the listing is not read as the listed one: the new content is read, checked against its own document")
    func replacedSinceListed() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let (reader, other, listing) = try await Self.listed(nuxeo)
        // Same size, other bytes: only the digest tells them apart.
        let replaced = try await other.upload(DataSource(string: "FIRST"), to: "/d", name: "a.txt", options: UploadOptions(conflict: .overwrite))
        #expect(replaced.id == listing.first?.id, "the document is the same, its content another")
        nuxeo.server.resetRequests()
        let sink = CountingSink()
        let result = try await reader.download("/d/a.txt", to: sink, options: DownloadOptions())
        #expect(await sink.received == Array("FIRST".utf8))
        // The listed read was refused before any byte reached the sink: one begin, of the new content.
        #expect(await sink.begins == 1)
        #expect(result.item.digests == replaced.digests && result.item.digests != listing.first?.digests)
        #expect(Self.counted(nuxeo.server.requests()) == (blobs: 2, lookups: 1))
    }

    @Test("a document deleted since the listing fails the read with notFound, and nothing reaches the sink")
    func deletedSinceListed() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let (reader, other, _) = try await Self.listed(nuxeo)
        try await other.delete("/d/a.txt")
        let sink = CountingSink()
        let error = await #expect(throws: ProviderError.self) {
            _ = try await reader.download("/d/a.txt", to: sink, options: DownloadOptions())
        }
        #expect(error?.code == .notFound, "\(String(describing: error))")
        #expect(await sink.begins == 0)
    }

    @Test("a listed document moved away and replaced at its path by another: the listed content, which the uid still names, is read")
    func movedSinceListed() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let (reader, other, _) = try await Self.listed(nuxeo)
        _ = try await other.move("/d/a.txt", to: "/d/b.txt", options: TransferOptions())
        _ = try await other.upload(DataSource(string: "newer one"), to: "/d", name: "a.txt", options: UploadOptions())
        let sink = CountingSink()
        let result = try await reader.download("/d/a.txt", to: sink, options: DownloadOptions())
        // What the listing saw at the path, whole and checked against its digest: a copy made a
        // moment earlier would have read the same; the next listing shows the new document.
        #expect(await sink.received == Array("first".utf8))
        #expect(result.item.size == 5)
    }
}

/// A sink that keeps what it was given and counts its `begin` calls.
actor CountingSink: DownloadSink {
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

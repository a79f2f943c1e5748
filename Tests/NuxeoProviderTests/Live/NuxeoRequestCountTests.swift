import Foundation
import NIOCore
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import ProviderKit
import Testing
import HTTPProviderKit

/// What the adapter asks the server for metadata, counted with the loopback server's request log.
@Suite("Nuxeo metadata requests on the loopback server")
struct NuxeoRequestCountTests {
    /// The requests that look documents up (not the blob, not the listing pages).
    static func lookups(_ requests: [RecordedRequest]) -> (byPath: Int, byId: Int, searches: Int) {
        let documents = requests.filter { $0.method == "GET" && !$0.path.contains("/@blob") && !$0.path.contains("/@children") }
        return (
            documents.filter { $0.path.contains("/api/v1/path") }.count,
            documents.filter { $0.path.contains("/api/v1/id/") }.count,
            documents.filter { $0.path.contains("/search/") }.count
        )
    }

    /// A scratch folder `name` in the workspace with `a/b/file.bin` in it (3 MiB and a bit).
    static func tree(_ nuxeo: LoopbackNuxeo) async throws -> (root: String, content: [UInt8]) {
        let name = "t-\(UInt32.random(in: 0...UInt32.max))"
        let workspace = try await nuxeo.provider()
        _ = try await workspace.createFolder(named: name, in: .root)
        _ = try await workspace.createFolder(named: "a", in: try ItemPath("/\(name)"))
        _ = try await workspace.createFolder(named: "b", in: try ItemPath("/\(name)/a"))
        let content = patternBytes((3 << 20) + 77)
        _ = try await workspace.upload(DataSource(bytes: content), to: try ItemPath("/\(name)/a/b"), name: "file.bin", options: UploadOptions())
        return (LoopbackNuxeo.workspace + "/" + name, content)
    }

    @Test("an uncached path whose segments are display names costs one lookup by path before the download")
    func downloadOneLookup() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let (root, content) = try await Self.tree(nuxeo)
        let provider = try await nuxeo.provider(root: root)
        nuxeo.server.resetRequests()
        let sink = MemorySink()
        let result = try await provider.download("/a/b/file.bin", to: sink, options: DownloadOptions())
        #expect(await sink.bytes == content)
        #expect(result.item.name == "file.bin")
        let counted = Self.lookups(nuxeo.server.requests())
        #expect(counted.byPath == 1 && counted.byId == 0 && counted.searches == 0, "\(counted)")
        // Now cached: one check by uid, no search.
        nuxeo.server.resetRequests()
        _ = try await provider.download("/a/b/file.bin", to: MemorySink(), options: DownloadOptions())
        let again = Self.lookups(nuxeo.server.requests())
        #expect(again.byPath == 0 && again.byId == 1 && again.searches == 0, "\(again)")
    }

    @Test("a URL-style path through server names (default-domain, workspaces) costs one lookup by path and one search")
    func serverNamesOneSearch() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let (root, content) = try await Self.tree(nuxeo)
        let provider = try await nuxeo.provider(root: "/")
        nuxeo.server.resetRequests()
        let sink = MemorySink()
        _ = try await provider.download(try ItemPath(root + "/a/b/file.bin"), to: sink, options: DownloadOptions())
        #expect(await sink.bytes == content)
        let counted = Self.lookups(nuxeo.server.requests())
        #expect(counted.byPath == 1 && counted.byId == 0 && counted.searches == 1, "\(counted)")
        // The path is remembered as it was written: a sibling below it needs no lookup but its own.
        _ = try await provider.upload(DataSource(string: "s"), to: try ItemPath(root + "/a/b"), name: "sibling.txt", options: UploadOptions())
        nuxeo.server.resetRequests()
        let sibling = MemorySink()
        _ = try await provider.download(try ItemPath(root + "/a/b/sibling.txt"), to: sibling, options: DownloadOptions())
        #expect(await sibling.bytes == Array("s".utf8))
        let cached = Self.lookups(nuxeo.server.requests())
        #expect(cached.byPath == 0 && cached.byId == 1 && cached.searches == 0, "\(cached)")
    }

    @Test("a display name the server rewrote, and a title that beats a server name, still resolve to the right document")
    func fallsBackToSearches() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let (root, _) = try await Self.tree(nuxeo)
        let workspace = try await nuxeo.provider(root: root)
        let long = "a folder name longer than twenty-four characters"
        _ = try await workspace.createFolder(named: long, in: "/a")
        _ = try await workspace.upload(DataSource(string: "deep"), to: try ItemPath("/a/\(long)"), name: "deep.txt", options: UploadOptions())
        // "x" is the server name of the document titled "x"; rename it to "y", then make another
        // document titled "x" (whose server name cannot be "x"): the path /a/x must be the new one.
        _ = try await workspace.upload(DataSource(string: "old"), to: "/a", name: "x", options: UploadOptions())
        try await workspace.update("/a/x", properties: ["dc:title": "y"])
        _ = try await workspace.upload(DataSource(string: "new"), to: "/a", name: "x", options: UploadOptions())

        let provider = try await nuxeo.provider(root: root)
        let deep = MemorySink()
        _ = try await provider.download(try ItemPath("/a/\(long)/deep.txt"), to: deep, options: DownloadOptions())
        #expect(await deep.bytes == Array("deep".utf8))
        let fresh = try await nuxeo.provider(root: root)
        let x = MemorySink()
        _ = try await fresh.download("/a/x", to: x, options: DownloadOptions())
        #expect(await x.bytes == Array("new".utf8))
        let y = MemorySink()
        _ = try await fresh.download("/a/y", to: y, options: DownloadOptions())
        #expect(await y.bytes == Array("old".utf8))
        await #expect(throws: ProviderError.self) { _ = try await fresh.item(at: "/a/nothing/here.txt") }
    }

    @Test("listing every page of a folder resolves it once and asks for nothing between pages")
    func listingPages() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let (root, _) = try await Self.tree(nuxeo)
        let seeded = nuxeo.server.seedFiles(
            in: root + "/a/b", (0..<120).map { (name: String(format: "f%03d.txt", $0), contents: Data("\($0)".utf8)) })
        #expect(seeded)
        let provider = try await nuxeo.provider(root: root, options: ["pageSize": "50"])
        nuxeo.server.resetRequests()
        let items = try await provider.listAll("/a/b")
        #expect(items.count == 121)
        #expect(Set(items.map(\.name)).count == 121)
        let requests = nuxeo.server.requests()
        #expect(requests.filter { $0.path.contains("/@children") }.count == 3)
        let counted = Self.lookups(requests)
        #expect(counted.byPath == 1 && counted.byId == 0 && counted.searches == 0, "\(counted)")
        // The listing taught the resolver every child and what it holds: reading one is its blob
        // by uid, checked against the listing, and no look-up.
        nuxeo.server.resetRequests()
        let one = MemorySink()
        _ = try await provider.download("/a/b/f042.txt", to: one, options: DownloadOptions())
        #expect(await one.bytes == Array("42".utf8))
        let read = nuxeo.server.requests()
        let after = Self.lookups(read)
        #expect(after.byPath == 0 && after.byId == 0 && after.searches == 0, "\(after)")
        #expect(read.count == 1 && read.first?.path.contains("/@blob/") == true, "\(read.map(\.path))")
    }

    @Test("a download whose bytes do not match the declared MD5 fails with integrity and leaves no file")
    func corruptedDownload() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let (root, content) = try await Self.tree(nuxeo)
        let provider = try await nuxeo.provider(root: root, transport: CorruptingTransport(inner: AsyncHTTPClientTransport.shared, at: 2_500_000))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-nx-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = await #expect(throws: ProviderError.self) {
            _ = try await provider.download("/a/b/file.bin", to: FileSink(url: dir.appendingPathComponent("file.bin")), options: DownloadOptions())
        }
        #expect(error?.code == .integrity, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
        // The same download unchecked lands the (corrupted) bytes: the check is what refused them.
        let sink = MemorySink()
        _ = try await provider.download("/a/b/file.bin", to: sink, options: DownloadOptions(verifyDigest: false))
        let got = await sink.bytes
        #expect(got.count == content.count && got != content)
    }
}

/// Flips one byte of every blob body, at `offset`, on its way from the server.
struct CorruptingTransport: HTTPTransport {
    let inner: any HTTPTransport
    let at: Int

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var response = try await inner.send(request)
        guard request.url.absoluteString.contains("/@blob/") else { return response }
        response.body = HTTPResponseBody(Flipping(base: response.body, at: at))
        return response
    }

    struct Flipping: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let base: HTTPResponseBody
        let at: Int

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: UploadStream.AsyncIterator
            let at: Int
            var position = 0

            mutating func next() async throws -> ByteBuffer? {
                guard var piece = try await base.next() else { return nil }
                let start = position
                position += piece.readableBytes
                if at >= start, at < position, let byte = piece.getInteger(at: piece.readerIndex + at - start, as: UInt8.self) {
                    piece.setInteger(byte ^ 0x5A, at: piece.readerIndex + at - start)
                }
                return piece
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), at: at) }
    }
}

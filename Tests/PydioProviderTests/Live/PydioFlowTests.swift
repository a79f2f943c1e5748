import Foundation
import ProviderAPI
import PydioProvider
import PydioTestServer
import Testing
import HTTPProviderKit

/// Pydio-specific behaviour through the adapter, against the loopback server.
@Suite("Pydio flows on the loopback server")
struct PydioFlowTests {
    @Test("a folder of more than 500 entries lists page by page and all at once")
    func pagination() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch()
        for index in 0..<510 {
            pydio.server.seedFile(
                workspace: "1", path: provider.settings.rootPath + String(format: "/f%03d.txt", index), contents: Data("\(index)".utf8))
        }
        let all = try await provider.listAll(.root)
        #expect(all.count == 510)
        #expect(Set(all.map(\.name)).count == 510)
        var pages = 0
        var request = PageRequest(limit: 100)
        var seen = 0
        while true {
            let page = try await provider.list(.root, page: request)
            pages += 1
            seen += page.items.count
            guard let next = page.next else { break }
            request.cursor = next
        }
        #expect(pages == 3 && seen == 510)
        let sent = pydio.server.requests().compactMap(\.query)
        #expect(sent.contains { $0.contains("dir=") && $0.contains("%25232") }, "the page marker is %23, itself encoded")
    }

    @Test("a large upload goes in parts, and the content round-trips")
    func partialUpload() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch(options: ["chunkSize": "4096"])
        let bytes = patternBytes(4096 * 3 + 11)
        let item = try await provider.upload(DataSource(bytes: bytes), to: .root, name: "parts.bin", options: UploadOptions())
        #expect(item.size == Int64(bytes.count))
        let parts = pydio.server.requests().filter { $0.action == "upload" && $0.parameter("partial_upload") == "true" }
        #expect(parts.count == 4)
        let sink = MemorySink()
        _ = try await provider.download(item.path, to: sink, options: DownloadOptions())
        #expect(await sink.bytes == bytes)
    }

    @Test("a large delete answered by a background task is waited for")
    func backgroundDelete() async throws {
        let pydio = try await LoopbackPydio.start { $0.backgroundTaskBytes = 1000 }
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch()
        let item = try await provider.upload(DataSource(bytes: patternBytes(5000)), to: .root, name: "heavy.bin", options: UploadOptions())
        try await provider.delete(item.path)
        await #expect(throws: ProviderError.self) { _ = try await provider.item(at: item.path) }
    }

    @Test("a public link is made, read back, opened without a session, and revoked")
    func publicLink() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch()
        let file = try await provider.upload(DataSource(string: "shared!"), to: .root, name: "s.txt", options: UploadOptions())
        let share = try await provider.share(file.path, with: ShareRequest(kind: .publicLink))
        let url = try #require(share.url)
        #expect(try await provider.shares(of: file.path).map(\.id) == [share.id])
        // The share's own download link (recording 32's `<link>/dl/<name>`), not one the caller builds.
        let direct = try #require(share.downloadURL)
        #expect(direct == url.appendingPathComponent("dl").appendingPathComponent("s.txt"))
        let response = try await AsyncHTTPClientTransport.shared.send(TransportRequest(method: .GET, url: direct))
        #expect(String(buffer: try await response.body.collect(upTo: 1 << 20)) == "shared!")
        try await provider.revoke(share)
        #expect(try await provider.shares(of: file.path).isEmpty)
        await #expect(throws: ProviderError.self) { _ = try await provider.share(file.path, with: ShareRequest(kind: .user("bob"))) }
    }

    @Test("names the server refuses are refused before a request, and encoded names round-trip")
    func names() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch()
        pydio.server.resetRequests()
        let error = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(DataSource(string: "x"), to: .root, name: "why?.txt", options: UploadOptions())
        }
        #expect(error?.code == .invalidArgument)
        #expect(pydio.server.requests().isEmpty)
        let encoded = NameEncoder(rules: provider.capabilities.names).encode("why?.txt")
        let item = try await provider.upload(DataSource(string: "x"), to: .root, name: encoded, options: UploadOptions())
        #expect(NameEncoder(rules: provider.capabilities.names).decode(item.name) == "why?.txt")
    }

    @Test("workspaces are listed, and one is chosen by id or slug; detect knows a Pydio server")
    func workspacesAndDetection() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let bySlug = try await PydioProvider.connect(pydio.configuration())
        let workspaces = try await bySlug.workspaces()
        #expect(workspaces.contains { $0.id == "1" && $0.slug == "my-files" })
        #expect(workspaces.allSatisfy { $0.holdsFiles })
        let name = "w-\(UInt32.random(in: 0...UInt32.max))"
        _ = try await bySlug.createFolder(named: name, in: .root)
        var byId = pydio.configuration()
        byId.url = URL(string: pydio.server.baseURL.absoluteString + "1")!
        #expect(try await PydioProvider.connect(byId).item(at: try ItemPath.root.appending(name)).kind == .folder)
        var missing = pydio.configuration()
        missing.url = URL(string: pydio.server.baseURL.absoluteString + "no-such-workspace")!
        let error = await #expect(throws: ProviderError.self) { _ = try await PydioProvider.connect(missing) }
        #expect(error?.code == .notFound)
        let registry = ProviderRegistry()
        registry.register(PydioProviderFactory())
        let found = await registry.detect(pydio.server.baseURL)
        #expect(found.first?.kind == "pydio")
        #expect(found.first?.url.scheme == "pydio")
    }
}

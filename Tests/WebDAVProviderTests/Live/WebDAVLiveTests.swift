import Foundation
import NIOCore
import ProviderAPI
import StrataTestSupport
import Testing
import WebDAVProvider

/// WebDAV behaviour on real servers beyond the portable suite: probing, auth, registry, streaming.
@Suite("WebDAV on real servers", .liveServers)
struct WebDAVLiveTests {
    @Test("connect probes the server's capabilities", arguments: LiveServers.names)
    func probe(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let provider = try await WebDAVProvider.connect(LiveServers.configuration(server))
        // nginx's dav-ext says `DAV: 2` only.
        #expect(provider.profile.davClasses.contains("1") || provider.profile.davClasses.contains("2"))
        #expect(provider.capabilities.supports([.move, .copy]))
        // Ranges are declared once a probe file answered them right, beside the first write.
        #expect(!provider.capabilities.supports(.rangeDownload))
        let (scratch, root, name) = try await LiveServers.scratch(server)
        defer { Task { try? await root.delete(try ItemPath(name)) } }
        #expect(scratch.capabilities.supports([.rangeDownload, .resumeDownload]))
        if LiveServers.quotaNames.contains(serverName) {
            // sabre, copyparty and chezdav report RFC 4331 quota; Apache does not (notes/webdav-servers.md).
            #expect(provider.capabilities.supports(.quota))
            let quota = try await provider.quota()
            #expect((quota.used ?? 0) > 0 || (quota.available ?? 0) > 0)
        } else {
            #expect(!provider.capabilities.supports(.quota))
        }
    }

    @Test("the registry detects WebDAV and resolves webdav:// URLs", arguments: LiveServers.names)
    func registry(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let registry = ProviderRegistry()
        registry.register(WebDAVProviderFactory())
        let found = await registry.detect(server.url, credentials: server.credentials)
        let first = try #require(found.first)
        #expect(first.kind == "webdav")
        #expect(first.url.scheme == "webdav")

        let (scratch, root, name) = try await LiveServers.scratch(server)
        defer { Task { try? await root.delete(try ItemPath(name)) } }
        _ = try await scratch.upload(data: Data("via registry".utf8), to: "/r.txt")
        let (provider, path) = try await registry.provider(
            for: first.url.appendingPathComponent(name).appendingPathComponent("r.txt"), credentials: server.credentials)
        #expect(path == (try ItemPath("/\(name)/r.txt")))
        #expect(String(decoding: try await provider.data(at: path), as: UTF8.self) == "via registry")
    }

    @Test("a wrong password is .unauthorized, with no secret in the error", arguments: LiveServers.loginNames)
    func wrongPassword(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let secret = "wrong-\(UInt32.random(in: 0...UInt32.max))"
        let provider = try WebDAVProvider(
            configuration: LiveServers.configuration(
                server, credentials: .basic(username: "strata", password: secret)))
        let error = await #expect(throws: ProviderError.self) { try await provider.item(at: .root) }
        #expect(error?.code == .unauthorized)
        #expect(error?.httpStatus == 401)
        #expect(!(error?.description.contains(secret) ?? true))
        await #expect(throws: ProviderError.self) {
            _ = try await WebDAVProvider.connect(
                LiveServers.configuration(server, credentials: .basic(username: "strata", password: secret)))
        }
    }

    @Test("an upload of unknown length streams chunked and arrives whole", arguments: LiveServers.names)
    func chunkedUpload(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let (provider, root, name) = try await LiveServers.scratch(server)
        defer { Task { try? await root.delete(try ItemPath(name)) } }
        let pieces = (0..<40).map { index in ByteBuffer(bytes: [UInt8](repeating: UInt8(index), count: 64 << 10)) }
        let stream = AsyncStream<ByteBuffer> { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        }
        let item = try await provider.upload(
            AsyncSequenceSource(stream), to: .root, name: "chunked.bin", options: UploadOptions())
        #expect(item.size == Int64(40 << 16))
        let data = try await provider.data(at: "/chunked.bin")
        #expect(data.count == 40 << 16)
        #expect(data[(5 << 16) + 7] == 5)
        #expect(data.last == 39)
    }

    @Test("PUT into a missing folder is .notFound whatever the server answers", arguments: LiveServers.names)
    func missingParent(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let (provider, root, name) = try await LiveServers.scratch(server)
        defer { Task { try? await root.delete(try ItemPath(name)) } }
        let error = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(data: Data("x".utf8), to: "/no/such/folder/x.txt")
        }
        #expect(error?.code == .notFound)
        let mkcol = await #expect(throws: ProviderError.self) {
            _ = try await provider.createFolder(named: "c", in: "/no/such")
        }
        #expect(mkcol?.code == .notFound)
    }

    @Test("listing a file is refused, deleting the root is refused", arguments: LiveServers.names)
    func misuse(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let (provider, root, name) = try await LiveServers.scratch(server)
        defer { Task { try? await root.delete(try ItemPath(name)) } }
        _ = try await provider.upload(data: Data("f".utf8), to: "/file.txt")
        let list = await #expect(throws: ProviderError.self) { _ = try await provider.list("/file.txt", page: .first) }
        #expect(list?.code == .invalidArgument)
        let delete = await #expect(throws: ProviderError.self) { try await provider.delete(.root) }
        #expect(delete?.code == .invalidArgument)
        let into = await #expect(throws: ProviderError.self) {
            _ = try await provider.move("/file.txt", to: "/file.txt/inside", options: TransferOptions())
        }
        #expect(into?.code == .invalidArgument)
    }
}

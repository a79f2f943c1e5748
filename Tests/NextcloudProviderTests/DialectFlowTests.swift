import Foundation
import NextcloudTestServer
import ProviderAPI
import Testing
import WebDAVProvider
import ProviderKit

/// The dialect's own behaviour against the loopback server: checksums both ways, `X-OC-Mtime`,
/// ids and permissions, shares, search, quota, the trash bin, credentials and detection.
@Suite("ownCloud/Nextcloud dialect flows on the loopback server")
struct DialectFlowTests {
    @Test("status.php chooses the starting guess, never the verdict: the dialect verifies beside its first write")
    func verifiesLikeAnyServer() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (provider, _) = try await cloud.scratch()
        _ = try await provider.createFolder(named: "first", in: .root)
        let verified = provider.profile.verified
        #expect(verified.isComplete, "\(verified)")
        #expect(verified.honoursPreconditions == true, "\(verified)")
        #expect(verified.refusesIfNoneMatchStar == true)
        #expect(verified.keepsPartialUploads == false)
        // The loopback server refuses a backslash in a name, as Nextcloud does (FilesEndpoint).
        #expect(verified.refusedNameCharacters == ["\\"])
        #expect(verified.allowsLeadingSpace == true)
        // Nextcloud stores names in NFC (`Filesystem::normalizePath`), and so does the loopback server.
        #expect(verified.nameNormalization == .nfc)
        #expect(provider.capabilities.supports(.preconditions))
        #expect(!provider.capabilities.supports(.exclusiveCreate))
        #expect(provider.capabilities.names.forbiddenCharacters == ["\\"])
    }

    @Test("uploads send OC-Checksum and X-OC-Mtime; an accepted mtime needs no PROPPATCH", arguments: [WebDAVDialect.Flavor.nextcloud, .owncloud])
    func uploadHeaders(flavor: WebDAVDialect.Flavor) async throws {
        let cloud = try await LoopbackNextcloud.start(flavor: flavor)
        defer { Task { await cloud.stop() } }
        let (provider, _) = try await cloud.scratch()
        let bytes = patternBytes(4321)
        let sha1 = try #require(Digester.hex(.sha1, of: bytes))
        let modified = Date(timeIntervalSince1970: 1_600_000_000)
        cloud.server.resetRequests()
        let item = try await provider.upload(DataSource(bytes: bytes), to: .root, name: "a.bin", options: UploadOptions(modified: modified))
        let requests = cloud.server.requests()
        let put = try #require(requests.first { $0.method == "PUT" })
        #expect(put.header("OC-Checksum") == "SHA1:\(sha1)")
        #expect(put.header("X-OC-Mtime") == "1600000000")
        #expect(!requests.contains { $0.method == "PROPPATCH" })
        #expect(item.modified == modified)
        #expect(item.digests[.sha1] == sha1)
        #expect(Int64(item.id) != nil || !item.id.hasPrefix("/"))
        #expect(item.id != item.path.description)
        #expect(item.permissions?.contains(.write) == true)
        // The id stays when the file moves.
        let moved = try await provider.move("/a.bin", to: "/b.bin", options: TransferOptions())
        #expect(moved.id == item.id)
    }

    @Test("a download whose content does not match oc:checksums fails with integrity, leaving no file")
    func downloadVerification() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (provider, folder) = try await cloud.scratch()
        _ = cloud.server.seedFile(
            user: LoopbackNextcloud.user, path: "\(folder)/lie.txt", contents: Data("real content".utf8),
            checksum: "SHA1:" + String(repeating: "ab", count: 20))
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("strata-nc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: target) }
        do {
            _ = try await provider.download("/lie.txt", to: FileSink(url: target), options: DownloadOptions())
            Issue.record("a download with a mismatching checksum succeeded")
        } catch let error as ProviderError {
            #expect(error.code == .integrity, "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
        // Without verification the bytes arrive.
        let sink = MemorySink()
        _ = try await provider.download("/lie.txt", to: sink, options: DownloadOptions(verifyDigest: false))
        #expect(await sink.data == Data("real content".utf8))
        // A good checksum passes.
        _ = try await provider.upload(DataSource(string: "fine"), to: .root, name: "ok.txt", options: UploadOptions())
        _ = try await provider.download("/ok.txt", to: FileSink(url: target), options: DownloadOptions())
        #expect(try Data(contentsOf: target) == Data("fine".utf8))
    }

    @Test("search: names, MIME families, sizes and folders, paged in name order")
    func search() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (provider, _) = try await cloud.scratch()
        let sub = try await provider.createFolder(named: "sub", in: .root)
        for (name, size) in [("report-a.txt", 10), ("report-b.txt", 2000), ("photo.jpg", 50), ("Report-c.txt", 30)] {
            _ = try await provider.upload(DataSource(bytes: patternBytes(size)), to: sub.path, name: name, options: UploadOptions())
        }
        _ = try await provider.upload(DataSource(string: "x"), to: .root, name: "report-top.txt", options: UploadOptions())
        func all(_ query: Query, limit: Int? = nil) async throws -> [String] {
            var names: [String] = []
            var request = PageRequest(limit: limit)
            while true {
                let page = try await provider.search(query, page: request)
                names += page.items.map(\.path.description)
                guard let next = page.next else { return names }
                request.cursor = next
            }
        }
        let reports = try await all(.nameContains("report"))
        #expect(Set(reports) == ["/sub/report-a.txt", "/sub/report-b.txt", "/sub/Report-c.txt", "/report-top.txt"])
        #expect(try await all(.nameContains("report"), limit: 1).count == 4)
        #expect(try await all(.and([.under("/sub"), .nameContains("report")])).count == 3)
        #expect(try await all(.mimeType("image/*")) == ["/sub/photo.jpg"])
        #expect(try await all(.and([.nameContains("report"), .size(min: 20, max: nil)])).sorted() == ["/sub/Report-c.txt", "/sub/report-b.txt"])
        #expect(try await all(.kind(.folder)) == ["/sub"])
        let searched = try #require(cloud.server.requests().last { $0.method == "SEARCH" })
        #expect(searched.path.hasSuffix("/remote.php/dav/") || searched.path.hasSuffix("/remote.php/dav"))
        await #expect(throws: ProviderError.self) { _ = try await provider.search(.fullText("x"), page: .first) }
    }

    @Test("without SEARCH on the server search is unsupported, with no request")
    func searchUnsupported() async throws {
        let cloud = try await LoopbackNextcloud.start(search: false)
        defer { Task { await cloud.stop() } }
        let provider = try await cloud.provider()
        #expect(!provider.capabilities.supports(.search))
        cloud.server.resetRequests()
        do {
            _ = try await provider.search(.nameContains("x"), page: .first)
            Issue.record("search succeeded")
        } catch let error as ProviderError {
            #expect(error.code == .unsupported)
        }
        #expect(cloud.server.requests().isEmpty)
    }

    @Test("quota from the DAV properties; the trash bin lists a deleted file and restores it", arguments: [WebDAVDialect.Flavor.nextcloud, .owncloud])
    func quotaAndTrash(flavor: WebDAVDialect.Flavor) async throws {
        let cloud = try await LoopbackNextcloud.start(flavor: flavor, quotaBytes: 1 << 20)
        defer { Task { await cloud.stop() } }
        let (provider, folder) = try await cloud.scratch()
        _ = try await provider.upload(DataSource(bytes: patternBytes(1000)), to: .root, name: "t.bin", options: UploadOptions())
        let quota = try await provider.quota()
        #expect(quota.used == 1000)
        let expected: Int64 = 1_048_576 - 1000
        #expect(quota.available == expected)
        try await provider.delete("/t.bin")
        let trash = try await provider.trashItems()
        let entry = try #require(trash.first { $0.originalName == "t.bin" })
        #expect(entry.originalLocation == "\(folder)/t.bin")
        #expect(entry.kind == .file)
        try await provider.restore(entry)
        #expect(try await provider.item(at: "/t.bin").size == 1000)
        #expect(try await provider.trashItems().contains { $0.id == entry.id } == false)
    }

    @Test("detect: status.php names the dialect, more confidently than the DAV header", arguments: [WebDAVDialect.Flavor.nextcloud, .owncloud])
    func detect(flavor: WebDAVDialect.Flavor) async throws {
        let cloud = try await LoopbackNextcloud.start(flavor: flavor)
        defer { Task { await cloud.stop() } }
        let registry = ProviderRegistry()
        registry.register(WebDAVProviderFactory())
        registry.register(OwnCloudProviderFactory(flavor: .nextcloud))
        registry.register(OwnCloudProviderFactory(flavor: .owncloud))
        let results = await registry.detect(
            cloud.server.baseURL, credentials: .basic(username: LoopbackNextcloud.user, password: LoopbackNextcloud.password))
        let best = try #require(results.first)
        #expect(best.kind == flavor.rawValue)
        #expect(best.url.scheme == flavor.rawValue)
        #expect(results.filter { $0.kind != "webdav" }.count == 1)
        // The scheme and the option both give the dialect.
        let (viaScheme, path) = try await registry.provider(
            for: try #require(URL(string: best.url.absoluteString.trimmingSuffix("/") + "/Docs/a.txt")),
            credentials: .basic(username: LoopbackNextcloud.user, password: LoopbackNextcloud.password))
        #expect((viaScheme as? WebDAVProvider)?.dialect?.flavor == flavor)
        #expect(path == "/Docs/a.txt")
        let webdav = try #require(URL(string: cloud.davURL().absoluteString.replacingOccurrences(of: "http:", with: "webdav:")))
        let (viaOption, optionPath) = try await registry.provider(
            for: webdav.appendingPathComponent("Docs"),
            credentials: .basic(username: LoopbackNextcloud.user, password: LoopbackNextcloud.password),
            options: ["dialect": flavor.rawValue])
        #expect((viaOption as? WebDAVProvider)?.dialect?.flavor == flavor)
        #expect(optionPath == "/Docs")
        // Plain WebDAV on the same URL is rooted at the user's files too, and has no dialect.
        let (plain, plainPath) = try await registry.provider(
            for: webdav.appendingPathComponent("Docs"),
            credentials: .basic(username: LoopbackNextcloud.user, password: LoopbackNextcloud.password))
        #expect((plain as? WebDAVProvider)?.dialect == nil)
        #expect(plainPath == "/Docs")
        _ = try await plain.list(.root, page: .first)
    }
}

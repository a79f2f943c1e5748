import Foundation
import ProviderAPI
import HTTPProviderKit
import PydioProvider
import PydioTestServer
import Testing

/// What the second run against a real pydio-core 8.2.5 found (recordings 46–60), through the
/// adapter against the loopback server that now behaves the same way.
@Suite("Pydio on the real server's terms: empty files, decomposed names, big folders, link details")
struct PydioSecondRunFlowTests {
    /// The name a file has on the server: its Unicode scalars, so that NFC and NFD differ.
    static func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

    @Test("an empty file is made with mkfile under each conflict policy, never uploaded (recordings 46–48)")
    func emptyFiles() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch()
        pydio.server.resetRequests()

        let made = try await provider.upload(DataSource(bytes: []), to: .root, name: "empty.txt", options: UploadOptions(conflict: .fail))
        #expect(made.kind == .file && made.size == 0 && made.path == ItemPath("/empty.txt"))
        do {
            _ = try await provider.upload(DataSource(bytes: []), to: .root, name: "empty.txt", options: UploadOptions(conflict: .fail))
            Issue.record("an existing name was replaced under .fail")
        } catch let error as ProviderError {
            #expect(error.code == .alreadyExists)
        }

        // Overwrite a file with content by an empty one.
        _ = try await provider.upload(DataSource(bytes: Array("full".utf8)), to: .root, name: "full.txt", options: UploadOptions())
        let emptied = try await provider.upload(DataSource(bytes: []), to: .root, name: "full.txt", options: UploadOptions(conflict: .overwrite))
        #expect(emptied.size == 0)
        let sink = MemorySink()
        _ = try await provider.download(emptied.path, to: sink, options: DownloadOptions())
        #expect(await sink.bytes.isEmpty)

        // Rename: the next free name, as auto_rename numbers uploads.
        let renamed = try await provider.upload(DataSource(bytes: []), to: .root, name: "empty.txt", options: UploadOptions(conflict: .rename))
        #expect(renamed.name == "empty-1.txt" && renamed.size == 0)
        let again = try await provider.upload(DataSource(bytes: []), to: .root, name: "empty.txt", options: UploadOptions(conflict: .rename))
        #expect(again.name == "empty-2.txt")

        let names = try await provider.listAll(.root).map(\.name).sorted()
        #expect(names == ["empty-1.txt", "empty-2.txt", "empty.txt", "full.txt"])
        let uploads = pydio.server.requests().filter { $0.action == "upload" }
        #expect(uploads.count == 1, "only the file with content is uploaded")
        #expect(pydio.server.requests().filter { $0.action == "mkfile" }.count == 4)
    }

    @Test("a decomposed (NFD) name is uploaded precomposed, then stat, get, cp, mv, share and rm work by the same NFD path")
    func decomposedFile() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch()
        let nfd = "cafe\u{301}.txt"
        let nfc = "caf\u{E9}.txt"
        let uploaded = try await provider.upload(DataSource(bytes: Array("nfd\n".utf8)), to: .root, name: nfd, options: UploadOptions())
        #expect(Self.scalars(uploaded.name) == Self.scalars(nfc))
        let sent = try #require(pydio.server.requests().last { $0.action == "upload" })
        #expect(sent.parameter("urlencoded_filename")?.contains("%C3%A9") == true, "the name goes out precomposed")

        let path = try ItemPath("/" + nfd)
        #expect(try await provider.item(at: path).size == 4)
        let sink = MemorySink()
        _ = try await provider.download(path, to: sink, options: DownloadOptions())
        #expect(await sink.bytes == Array("nfd\n".utf8))

        let share = try await provider.share(path, with: ShareRequest(kind: .publicLink))
        #expect(try await provider.shares(of: path).map(\.id) == [share.id])
        try await provider.revoke(share)

        _ = try await provider.createFolder(named: "sub", in: .root)
        let copied = try await provider.copy(path, to: try ItemPath("/sub/" + nfd), options: TransferOptions())
        #expect(Self.scalars(copied.name) == Self.scalars(nfc))
        let moved = try await provider.move(try ItemPath("/sub/" + nfd), to: try ItemPath("/sub/moved-" + nfd), options: TransferOptions())
        #expect(Self.scalars(moved.name) == Self.scalars("moved-" + nfc))
        try await provider.delete(path)
        try await provider.delete(try ItemPath("/sub/moved-" + nfd))
        #expect(try await provider.listAll(.root).map(\.name) == ["sub"])
        #expect(try await provider.listAll(ItemPath("/sub")).isEmpty)
        // Every path the adapter sent was precomposed.
        for request in pydio.server.requests() {
            for name in ["file", "dir", "dest", "nodes[]", "filename_new", "targetBaseName", "dirname"] {
                guard let value = request.parameter(name) else { continue }
                #expect(Self.scalars(value) == Self.scalars(value.precomposedStringWithCanonicalMapping), "\(name)=\(value) sent decomposed")
            }
        }
    }

    @Test("a decomposed folder name is created precomposed, and the same name precomposed is then taken")
    func decomposedFolder() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch()
        let made = try await provider.createFolder(named: "dossier-e\u{301}", in: .root)
        #expect(Self.scalars(made.name) == Self.scalars("dossier-\u{E9}"))
        let listed = try await provider.listAll(.root)
        #expect(listed.map { Self.scalars($0.name) } == [Self.scalars("dossier-\u{E9}")])
        await #expect(throws: ProviderError.self) { _ = try await provider.createFolder(named: "dossier-\u{E9}", in: .root) }
        let inside = try await provider.upload(
            DataSource(bytes: [1, 2]), to: ItemPath("/dossier-e\u{301}"), name: "x.bin", options: UploadOptions())
        #expect(inside.size == 2)
    }

    @Test("search in a folder of 1,100 files finds the file: no current_dir, so no term explosion (recordings 54–55)")
    func searchInBigFolder() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch()
        _ = try await provider.createFolder(named: "many", in: .root)
        for index in 0..<1_100 {
            pydio.server.seedFile(
                workspace: "1", path: provider.settings.rootPath + String(format: "/many/m-%04d.txt", index), contents: Data("m\n".utf8))
        }
        // A name elsewhere in the workspace that also matches: dropped by the adapter, being outside the folder.
        pydio.server.seedFile(workspace: "1", path: "/elsewhere/m-0007.txt", contents: Data("x".utf8))
        let found = try await provider.search(.and([.under(ItemPath("/many")), .nameContains("m-0007")]), page: PageRequest(limit: 10))
        #expect(found.items.map(\.path) == [ItemPath("/many/m-0007.txt")])
        let searches = pydio.server.requests().filter { $0.action == "search" }
        #expect(!searches.isEmpty && searches.allSatisfy { $0.parameter("current_dir") == nil })
    }

    @Test("full text is declared only when the workspace indexes contents (recording 60)")
    func fullTextDeclared() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let stock = try await PydioProvider.connect(pydio.configuration())
        #expect(!stock.capabilities.supports(.fullTextSearch) && stock.capabilities.supports(.search))
        await #expect(throws: ProviderError.self) { _ = try await stock.search(.fullText("zebra"), page: .first) }
        let indexed = try await PydioProvider.connect(pydio.configuration(options: ["indexesContent": "true"]))
        #expect(indexed.capabilities.supports(.fullTextSearch))
    }

    @Test("a link's expiry and password are read back from load_shared_element_data (recordings 56–57)")
    func shareDetails() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch()
        let file = try await provider.upload(DataSource(bytes: Array("shared!!\n".utf8)), to: .root, name: "shared.txt", options: UploadOptions())
        // 65 minutes short of a week: the server keeps whole days, 7 of them from now.
        let week = Date().addingTimeInterval(7 * 86_400 - 65 * 60)
        let made = try await provider.share(file.path, with: ShareRequest(kind: .publicLink, password: "p4ss-w0rd", expires: week))
        let read = try #require(try await provider.shares(of: file.path).first)
        #expect(read.id == made.id && read.passwordProtected)
        let expires = try #require(read.expires)
        #expect(abs(expires.timeIntervalSince(week)) < 2 * 86_400, "expires about a week from now: \(expires)")
        #expect(read.properties["expire_after"] == "7")
        // The share made reports the expiry the server keeps, not the one asked.
        let kept = try #require(made.expires)
        #expect(abs(kept.timeIntervalSince(week) - 65 * 60) < 60, "the server's 7 days, 65 minutes after the asked expiry: \(kept)")
        #expect(abs(kept.timeIntervalSince(expires)) < 120, "shares(of:) reads the same expiry: \(expires), \(kept)")
        #expect(made.properties["expire_after"] == "7")
        #expect(provider.capabilities.shareExpiryGranularity == .seconds(86_400))
        // Its download link refuses a stranger without the password.
        let link = try #require(made.downloadURL)
        let refused = try await AsyncHTTPClientTransport.shared.send(TransportRequest(method: .GET, url: link))
        #expect(refused.status == 401)
        await refused.body.discard()

        let plain = try await provider.upload(DataSource(bytes: [1]), to: .root, name: "plain.bin", options: UploadOptions())
        _ = try await provider.share(plain.path, with: ShareRequest(kind: .publicLink))
        let open = try #require(try await provider.shares(of: plain.path).first)
        #expect(!open.passwordProtected && open.expires == nil)
    }

    @Test("a POST names its get_action in the request summary, without the secrets of its body")
    func requestSummary() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await PydioProvider.connect(pydio.configuration())
        let login = await provider.session.request("login", [("userid", "ann"), ("password", "hunter2")], post: true)
        #expect(login.summary.contains("get_action=login"))
        #expect(!login.summary.contains("hunter2"))
        let mkdir = await provider.session.request("mkdir", [("dir", "/"), ("dirname", "x")], post: true)
        #expect(mkdir.summary.hasPrefix("POST ") && mkdir.summary.contains("get_action=mkdir"))
        // A write the server refuses: its error names the POST's action.
        do {
            _ = try await provider.session.call(
                "mkdir", [("tmp_repository_id", "1"), ("dir", "/missing"), ("dirname", "a")], post: true,
                chain: PydioRecognizers.chain(PydioRecognizers.change))
            Issue.record("a folder in a missing folder was made")
        } catch let error as ProviderError {
            #expect(error.request?.contains("POST /pydio/index.php [get_action=mkdir]") == true, "the failing request: \(error.request ?? "none")")
        }
    }
}

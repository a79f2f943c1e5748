import Foundation
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import Testing
import HTTPProviderKit

/// Nuxeo-specific behaviour through the adapter, against the loopback server.
@Suite("Nuxeo flows on the loopback server")
struct NuxeoFlowTests {
    @Test("listing pages through a folder whose count is -2, page by page and all at once")
    func pagingPastUnknownCount() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch(options: ["pageSize": "50"])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<120 {
                group.addTask {
                    _ = try await provider.upload(
                        DataSource(string: "\(index)"), to: .root, name: String(format: "f%03d.txt", index), options: UploadOptions(conflict: .overwrite))
                }
            }
            try await group.waitForAll()
        }
        var names: [String] = []
        var request = PageRequest(limit: 50)
        var pages = 0
        while true {
            let page = try await provider.list(.root, page: request)
            pages += 1
            #expect(page.totalCount == nil || page.totalCount == 120)
            names += page.items.map(\.name)
            guard let next = page.next else { break }
            request.cursor = next
        }
        #expect(pages == 3)
        #expect(names.sorted() == (0..<120).map { String(format: "f%03d.txt", $0) })
        let all = try await provider.list(.root, page: .first)
        #expect(all.items.count == 120)
        #expect(all.next == nil)
    }

    @Test("names the server rewrites still round-trip: long, clashing, slashes and punctuation")
    func rewrittenNames() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch()
        let names = [
            "a very long name that the server truncates to 24 characters.txt",
            "a very long name that the server truncates to 24 characters too.txt",
            "back\\slash.txt", "?!?", " padded ", "@adapter-looking.txt",
        ]
        for name in names {
            let item = try await provider.upload(DataSource(string: name), to: .root, name: name, options: UploadOptions(conflict: .fail))
            #expect(item.name == name)
            let stat = try await provider.item(at: try ItemPath.root.appending(name))
            #expect(stat.id == item.id)
            let sink = MemorySink()
            _ = try await provider.download(try ItemPath.root.appending(name), to: sink, options: DownloadOptions())
            #expect(await sink.bytes == Array(name.utf8))
        }
        let listed = try await provider.listAll(.root).map(\.name)
        #expect(Set(listed) == Set(names))
    }

    @Test("a URL path of server names reaches the same document as display names")
    func serverNamesInPaths() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let top = try await nuxeo.provider(root: "/")
        let viaNames = try await top.item(at: "/default-domain/workspaces/strata")
        let viaTitles = try await top.item(at: "/Domain/Workspaces/strata")
        #expect(viaNames.id == viaTitles.id)
        #expect(viaNames.kind == .folder)
        // Search names results below a folder by the path it was reached by.
        let fresh = try await nuxeo.provider(root: "/")
        let folder: ItemPath = "/default-domain/workspaces/strata"
        let unique = "found-\(UInt32.random(in: 0...UInt32.max)).txt"
        _ = try await fresh.upload(DataSource(string: "f"), to: folder, name: unique, options: UploadOptions())
        let hits = try await fresh.search(.and([.nameContains(unique), .under(folder)]), page: PageRequest(limit: 10))
        #expect(hits.items.map(\.path) == [try folder.appending(unique)])
        let elsewhere = try await nuxeo.provider(root: "/")
        let titled = try await elsewhere.search(.nameContains(unique), page: PageRequest(limit: 10))
        #expect(titled.items.map(\.path) == [try ItemPath("/Domain/Workspaces/strata").appending(unique)])
    }

    @Test("NXQL passes through, and the portable query is compiled and scoped to the root")
    func search() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch()
        let folder = try await provider.createFolder(named: "Quarter's \"reports\"", in: .root)
        _ = try await provider.upload(DataSource(string: "alpha beta"), to: folder.path, name: "it's 100% done.txt", options: UploadOptions())
        _ = try await provider.upload(DataSource(string: "gamma"), to: .root, name: "other.txt", options: UploadOptions())
        let byName = try await provider.search(.nameContains("100% d"), page: PageRequest(limit: 10))
        #expect(byName.items.map(\.path) == [try folder.path.appending("it's 100% done.txt")])
        let under = try await provider.search(.and([.kind(.file), .under(folder.path)]), page: PageRequest(limit: 10))
        #expect(under.items.map(\.name) == ["it's 100% done.txt"])
        let native = try await provider.search(
            .native("SELECT * FROM Document WHERE dc:title = 'other.txt' AND ecm:isTrashed = 0"), page: PageRequest(limit: 10))
        #expect(native.items.map(\.name) == ["other.txt"])
        for name in ["b-sorted.txt", "a-sorted.txt", "c-sorted.txt"] {
            _ = try await provider.upload(DataSource(string: name), to: .root, name: name, options: UploadOptions())
        }
        let descending = try await provider.search(.nameContains("-sorted"), page: PageRequest(limit: 2, sort: [SortKey(.name, ascending: false)]))
        #expect(descending.items.map(\.name) == ["c-sorted.txt", "b-sorted.txt"])
        let rest = try await provider.search(.nameContains("-sorted"), page: PageRequest(limit: 2, cursor: descending.next, sort: [SortKey(.name, ascending: false)]))
        #expect(rest.items.map(\.name) == ["a-sorted.txt"])
        #expect(rest.next == nil)
        let sent = nuxeo.server.requests().filter { $0.path.hasSuffix("/search/execute") }.compactMap(\.query)
        #expect(sent.allSatisfy { !$0.contains("+") }, "a + in a query string would be read as a space")
    }

    @Test("a share is an ACE: granted, listed, revoked")
    func shares() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch()
        let file = try await provider.upload(DataSource(string: "x"), to: .root, name: "s.txt", options: UploadOptions())
        let share = try await provider.share(file.path, with: ShareRequest(kind: .user("Administrator"), permissions: [.read, .write]))
        #expect(share.kind == .user("Administrator"))
        #expect(share.permissions.contains(.write))
        #expect(try await provider.shares(of: file.path).map(\.id) == [share.id])
        let expiring = try await provider.share(
            file.path, with: ShareRequest(kind: .email("guest@example.com"), expires: Date().addingTimeInterval(86_400)))
        #expect(expiring.kind == .email("guest@example.com"))
        try await provider.revoke(share)
        #expect(try await provider.shares(of: file.path).map(\.id) == [expiring.id])
        await #expect(throws: ProviderError.self) {
            _ = try await provider.share(file.path, with: ShareRequest(kind: .email("nobody@example.com")))
        }
    }

    @Test("Automation passthrough: any operation, documents back; FileManager.Import on a batch")
    func automation() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.provider()
        let folder = try await provider.createFolder(named: "auto", in: .root)
        let result = try await provider.client.automation(NuxeoAutomationRequest(
            "Repository.Query", params: ["query": .string("SELECT * FROM Document WHERE ecm:uuid = '\(folder.id)'")]))
        guard case .documents(let list) = result else {
            Issue.record("Repository.Query answered \(result)")
            return
        }
        #expect(list.entries.map(\.uid) == [folder.id])
        let batch = try await provider.uploadBatch(DataSource(string: "imported"), fileName: "imported.txt")
        let imported = try await provider.client.execute(
            "FileManager.Import", onBatch: batch, params: ["overwite": false], context: ["currentDocument": .string(folder.id)])
        #expect(imported.document?.title == "imported.txt")
        let sink = MemorySink()
        _ = try await provider.download(try folder.path.appending("imported.txt"), to: sink, options: DownloadOptions())
        #expect(await sink.bytes == Array("imported".utf8))
    }

    @Test("trash hides a document from listings and paths; untrash brings it back")
    func trash() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch(options: ["delete": "trash"])
        let file = try await provider.upload(DataSource(string: "t"), to: .root, name: "t.txt", options: UploadOptions())
        try await provider.delete(file.path)
        #expect(try await provider.listAll(.root).isEmpty)
        await #expect(throws: ProviderError.self) { _ = try await provider.item(at: file.path) }
        _ = try await provider.untrash(uid: file.id)
        #expect(try await provider.item(at: file.path).id == file.id)
    }

    @Test("the change feed reports uploads and trashed documents")
    func changes() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch()
        let start = try await provider.changes(since: nil)
        try await Task.sleep(for: .milliseconds(5))
        let file = try await provider.upload(DataSource(string: "c"), to: .root, name: "c.txt", options: UploadOptions())
        let batch = try await provider.changes(since: start.next)
        #expect(batch.changes.contains { $0.path == file.path && $0.kind == .modified })
        let again = try await provider.changes(since: batch.next)
        #expect(!again.changes.contains { $0.path == file.path }, "the same change twice")
        _ = try await provider.trash(file.path)
        let trashed = try await provider.changes(since: again.next)
        #expect(trashed.changes.contains { $0.kind == .deleted })
    }

    @Test("properties update with a change token; a stale one is a conflict; a title change renames")
    func updateProperties() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch()
        let file = try await provider.upload(DataSource(string: "u"), to: .root, name: "u.txt", options: UploadOptions())
        let token = try #require(file.etag)
        let updated = try await provider.update(file.path, properties: ["dc:description": "first"], changeToken: token)
        #expect(updated.properties["dc:description"]?.stringValue == "first")
        let error = await #expect(throws: ProviderError.self) {
            _ = try await provider.update(file.path, properties: ["dc:description": "stale"], changeToken: token)
        }
        #expect(error?.code == .conflict)
        try await provider.update(file.path, properties: ["dc:title": "renamed.txt"])
        #expect(try await provider.item(at: "/renamed.txt").id == file.id)
        #expect(try await provider.listAll(.root).map(\.name) == ["renamed.txt"])
    }

    @Test("a folder under the workspaces root is a Workspace, elsewhere a Folder")
    func folderTypes() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let workspaces = try await nuxeo.provider(root: "/default-domain/workspaces")
        let workspace = try await workspaces.createFolder(named: "Team \(UInt16.random(in: 0...9999))", in: .root)
        #expect(workspace.properties["ecm:primaryType"] == "Workspace")
        let folder = try await workspaces.createFolder(named: "inside", in: workspace.path)
        #expect(folder.properties["ecm:primaryType"] == "Folder")
    }

    @Test("page providers take ordered queryParams or named parameters; an unknown one is notFound")
    func pageProviders() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch()
        let folder = try await provider.createFolder(named: "sub", in: .root)
        _ = try await provider.upload(DataSource(string: "p"), to: .root, name: "p+q.txt", options: UploadOptions())
        let root = try await provider.item(at: .root)
        let children = try await provider.client.pageProvider("CURRENT_DOC_CHILDREN", queryParams: [root.id], page: 0, pageSize: 10)
        #expect(Set(children.entries.map(\.uid)) == Set([folder.id, try await provider.item(at: "/p+q.txt").id]))
        let folders = try await provider.client.pageProvider("tree_children", queryParams: [root.id], page: 0, pageSize: 10)
        #expect(folders.entries.map(\.uid) == [folder.id])
        let named = try await provider.client.pageProvider(
            "advanced_document_content", namedParameters: ["ecm_parentId": root.id], page: 0, pageSize: 10)
        #expect(named.entries.count == 2)
        let error = await #expect(throws: ProviderError.self) {
            _ = try await provider.client.pageProvider("no_such_provider", page: 0, pageSize: 10)
        }
        #expect(error?.code == .notFound)
    }

    @Test("Automation answers decode through the registry, an app's own entity types included")
    func customEntities() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let standard = try await nuxeo.provider()
        // An answer other than documents comes back as its JSON, which the client's registry decodes.
        guard case .json(let answer) = try await standard.client.automation(NuxeoAutomationRequest("login")),
            case .login(let login) = try standard.client.entities.decode(json: answer)
        else {
            Issue.record("login did not decode as a login entity")
            return
        }
        #expect(login.username == LoopbackNuxeo.user)
        let custom = try await NuxeoProvider.connect(
            nuxeo.configuration(), entities: NuxeoEntityRegistry.standard.registering(AppLogin.self))
        guard case .json(let json) = try await custom.client.automation(NuxeoAutomationRequest("login")),
            let mine = try custom.client.entities.decode(json: json).custom(as: AppLogin.self)
        else {
            Issue.record("login did not decode as the app's type")
            return
        }
        #expect(mine.user == LoopbackNuxeo.user)
    }

    @Test("detect knows a Nuxeo server, with and without credentials")
    func detection() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let registry = ProviderRegistry()
        registry.register(NuxeoProviderFactory())
        let signedIn = await registry.detect(nuxeo.server.baseURL, credentials: .basic(username: LoopbackNuxeo.user, password: LoopbackNuxeo.password))
        #expect(signedIn.first?.kind == "nuxeo" && signedIn.first?.confidence == 90)
        #expect(signedIn.first?.url.scheme == "nuxeo")
        let anonymous = await registry.detect(nuxeo.server.baseURL)
        #expect(anonymous.first?.kind == "nuxeo" && anonymous.first?.confidence == 60)
    }
}

/// An app's own decoding of the `login` entity, registered in place of the built-in one.
struct AppLogin: NuxeoEntityDecodable {
    static let entityType = "login"
    var user: String

    init(nuxeoJSON json: JSONValue) throws {
        guard let user = json["username"]?.stringValue else { throw ProviderError(.invalidResponse, "no username") }
        self.user = user
    }
}

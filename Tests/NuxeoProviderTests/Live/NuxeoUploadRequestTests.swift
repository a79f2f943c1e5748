import Foundation
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import Testing

/// What an upload into a folder this provider knows asks the server: the search for the name
/// checks the folder too, so it is not fetched again for each file; a folder that no longer
/// holds at its path is looked up afresh, and the file never lands in the folder that was there.
@Suite("Nuxeo upload requests on the loopback server")
struct NuxeoUploadRequestTests {
    /// A provider rooted at a fresh folder with `/d` in it (known to it), and another on the same root.
    static func scratch(_ nuxeo: LoopbackNuxeo) async throws -> (provider: NuxeoProvider, other: NuxeoProvider, root: String) {
        let name = "t-\(UInt32.random(in: 0...UInt32.max))"
        _ = try await nuxeo.provider().createFolder(named: name, in: .root)
        let root = LoopbackNuxeo.workspace + "/" + name
        let provider = try await nuxeo.provider(root: root)
        _ = try await provider.createFolder(named: "d", in: .root)
        return (provider, try await nuxeo.provider(root: root), root)
    }

    @Test("an upload into a known folder is one search (the name and the folder), the batch and its upload, and the document: the folder is not fetched again")
    func fourRequests() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let (provider, _, _) = try await Self.scratch(nuxeo)
        _ = try await provider.upload(DataSource(string: "0"), to: "/d", name: "0.txt", options: UploadOptions())
        nuxeo.server.resetRequests()
        _ = try await provider.upload(DataSource(string: "1"), to: "/d", name: "1.txt", options: UploadOptions())
        let requests = nuxeo.server.requests()
        #expect(requests.count == 4, "\(requests.map { "\($0.method) \($0.path)" })")
        #expect(NuxeoRequestCountTests.lookups(requests) == (byPath: 0, byId: 0, searches: 1))
        #expect(try await provider.data(at: "/d/1.txt") == Data("1".utf8))
    }

    @Test("a known folder renamed since, and another made at its path: the file goes into the one at the path, not the renamed one")
    func folderReplacedAtItsPath() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let (provider, other, _) = try await Self.scratch(nuxeo)
        _ = try await provider.upload(DataSource(string: "0"), to: "/d", name: "0.txt", options: UploadOptions())
        _ = try await other.move("/d", to: "/moved", options: TransferOptions())
        _ = try await other.createFolder(named: "d", in: .root)
        _ = try await provider.upload(DataSource(string: "new"), to: "/d", name: "a.txt", options: UploadOptions())
        #expect(try await other.listAll("/d").map(\.name) == ["a.txt"])
        #expect(try await other.listAll("/moved").map(\.name) == ["0.txt"])
    }

    @Test("a known folder deleted or trashed since: the upload fails with notFound and stores nothing")
    func folderGone() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        for trash in [false, true] {
            let (provider, other, root) = try await Self.scratch(nuxeo)
            _ = try await provider.upload(DataSource(string: "0"), to: "/d", name: "0.txt", options: UploadOptions())
            let deleting = trash ? try await nuxeo.provider(root: root, options: ["delete": "trash"]) : other
            try await deleting.delete("/d")
            let error = await #expect(throws: ProviderError.self) {
                _ = try await provider.upload(DataSource(string: "x"), to: "/d", name: "a.txt", options: UploadOptions())
            }
            #expect(error?.code == .notFound, "trash \(trash): \(String(describing: error))")
            #expect(try await other.listAll(.root).isEmpty, "trash \(trash)")
        }
    }
}

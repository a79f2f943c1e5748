import Foundation
import ProviderAPI
import ProviderKit
import Testing
import WebDAVProvider

/// `listTree` sends one `PROPFIND` with `Depth: infinity` and trusts it only once a folder of the
/// answer matched its own `Depth: 1` listing; a server that refuses, or answers one level only,
/// is remembered and not asked again.
@Suite("WebDAV whole-tree listings (Depth: infinity)")
struct TreeListingTests {
    /// `/t` with two files, `/t/sub` with a file and `/t/sub/deep` with a file, and an empty `/t/zz-empty`.
    static func server(_ depthInfinity: FakeDAVServer.Behaviour.DepthInfinity) async throws -> (FakeDAVServer, WebDAVProvider) {
        let server = FakeDAVServer(.init(server: "Fake/1", depthInfinity: depthInfinity))
        let provider = try WebDAVProvider(configuration: server.configuration())
        _ = try await provider.createFolder(named: "t", in: .root)
        _ = try await provider.createFolder(named: "sub", in: "/t")
        _ = try await provider.createFolder(named: "deep", in: "/t/sub")
        _ = try await provider.createFolder(named: "zz-empty", in: "/t")
        for (folder, name) in [("/t", "a.txt"), ("/t", "b.txt"), ("/t/sub", "c.txt"), ("/t/sub/deep", "d.txt")] {
            _ = try await provider.upload(DataSource(string: name), to: try ItemPath(folder), name: name, options: UploadOptions(readBack: false))
        }
        return (server, provider)
    }

    static func names(_ listing: FolderListing?) -> [String]? { listing?.items.map(\.name) }

    @Test("a server that lists the whole tree is proven with one Depth: 1 listing, then answers in one request")
    func wholeTree() async throws {
        let (server, provider) = try await Self.server(.whole)
        var before = server.requests.count
        let first = try #require(try await provider.listTree("/t", fields: [], maxEntries: 1000))
        // The infinity PROPFIND and the proof's Depth: 1 of one folder.
        #expect(server.requests.count - before == 2, "\(server.requests.dropFirst(before))")
        #expect(Self.names(first.listing(of: "/t")) == ["a.txt", "b.txt", "sub", "zz-empty"])
        #expect(Self.names(first.listing(of: "/t/sub")) == ["c.txt", "deep"])
        #expect(Self.names(first.listing(of: "/t/sub/deep")) == ["d.txt"])
        #expect(Self.names(first.listing(of: "/t/zz-empty")) == [])
        #expect(first.listing(of: "/t/sub/deep")?.completeness == .ended)
        #expect(first.listing(of: "/t/sub")?.items.first?.path == "/t/sub/c.txt")
        before = server.requests.count
        let second = try #require(try await provider.listTree("/t", fields: [], maxEntries: 1000))
        #expect(server.requests.count - before == 1)
        #expect(Self.names(second.listing(of: "/t/sub/deep")) == ["d.txt"])
        // Too many entries: nil, not a cut answer.
        #expect(try await provider.listTree("/t", fields: [], maxEntries: 3) == nil)
    }

    @Test("a server that answers one level only is caught by one Depth: 1 listing; the root's children are used, and it is not asked again")
    func oneLevel() async throws {
        let (server, provider) = try await Self.server(.oneLevel)
        var before = server.requests.count
        let tree = try #require(try await provider.listTree("/t", fields: [], maxEntries: 1000))
        #expect(server.requests.count - before == 2)
        #expect(tree.coveredFolders == ["/t"])
        #expect(Self.names(tree.listing(of: "/t")) == ["a.txt", "b.txt", "sub", "zz-empty"])
        before = server.requests.count
        #expect(try await provider.listTree("/t", fields: [], maxEntries: 1000) == nil)
        #expect(server.requests.count == before)
    }

    @Test("a server that refuses Depth: infinity is remembered: the second listTree sends nothing")
    func refused() async throws {
        let (server, provider) = try await Self.server(.refused)
        var before = server.requests.count
        #expect(try await provider.listTree("/t", fields: [], maxEntries: 1000) == nil)
        #expect(server.requests.count - before == 1)
        before = server.requests.count
        #expect(try await provider.listTree("/t", fields: [], maxEntries: 1000) == nil)
        #expect(server.requests.count == before)
    }

    @Test("an answer that leaves a subfolder's contents out, and has nothing deeper to compare, is caught the same way")
    func omittedContents() async throws {
        let (server, provider) = try await Self.server(.omitting("/t/sub"))
        let tree = try #require(try await provider.listTree("/t", fields: [], maxEntries: 1000))
        #expect(tree.coveredFolders == ["/t"])
        let before = server.requests.count
        #expect(try await provider.listTree("/t", fields: [], maxEntries: 1000) == nil)
        #expect(server.requests.count == before)
    }

    @Test("a proven server is trusted for its later answers: a folder left out then is given as empty (the planner re-lists before deleting)")
    func provenThenShort() async throws {
        let (_, provider) = try await Self.server(.omitting("/t/sub/deep"))
        let tree = try #require(try await provider.listTree("/t", fields: [], maxEntries: 1000))
        #expect(Self.names(tree.listing(of: "/t/sub")) == ["c.txt", "deep"])
        #expect(Self.names(tree.listing(of: "/t/sub/deep")) == [])
    }
}

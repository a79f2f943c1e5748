import Foundation
import HTTPProviderKit
import ProviderAPI
import ProviderKit
import ProviderTesting
import Testing
import WebDAVProvider

/// `listTree` on each live server: proven where the server answers `Depth: infinity` whole
/// (Apache, rclone), caught where it answers one level (sabre), remembered where it refuses
/// (nginx, lighttpd, copyparty, chezdav); where it gives a tree, every folder it covers is its
/// own Depth: 1 listing.
@Suite("Whole-tree listings on real servers", .liveServers)
struct TreeListingLiveTests {
    /// What each server is expected to do with `Depth: infinity`.
    static let expected: [String: Bool] = [
        "apache": true, "rclone": true, "sabre": false, "nginx": false, "lighttpd": false, "copyparty": false, "chezdav": false,
    ]

    @Test("listTree is proven, caught or refused as the server behaves, and a tree it gives equals the Depth: 1 listings", arguments: expected.keys.sorted())
    func tree(_ name: String) async throws {
        let server = try LiveServers.server(name)
        let (scratch, _, folder) = try await LiveServers.scratch(server)
        // a.txt, b.txt, sub/c.txt, sub/deep/d.txt, zz-empty/
        _ = try await scratch.upload(DataSource(string: "a"), to: .root, name: "a.txt", options: UploadOptions())
        _ = try await scratch.upload(DataSource(string: "bb"), to: .root, name: "b.txt", options: UploadOptions())
        _ = try await scratch.createFolder(named: "sub", in: .root)
        _ = try await scratch.upload(DataSource(string: "ccc"), to: "/sub", name: "c.txt", options: UploadOptions())
        _ = try await scratch.createFolder(named: "deep", in: "/sub")
        _ = try await scratch.upload(DataSource(string: "dddd"), to: "/sub/deep", name: "d.txt", options: UploadOptions())
        _ = try await scratch.createFolder(named: "zz-empty", in: .root)

        let counting = CountingTransport(AsyncHTTPClientTransport.shared)
        let provider = try WebDAVProvider(configuration: LiveServers.configuration(server, folder: folder, transport: counting))
        let first = try await provider.listTree(.root, fields: [], maxEntries: 1000)
        let honours = Self.expected[name] == true
        if honours {
            let tree = try #require(first)
            #expect(Set(tree.coveredFolders) == ["/", "/sub", "/sub/deep", "/zz-empty"])
            for covered in tree.coveredFolders {
                let own = try await provider.listing(covered, fields: []).items.map { "\($0.name) \($0.kind) \($0.size ?? -1)" }.sorted()
                let fromTree = (tree.listing(of: covered)?.items ?? []).map { "\($0.name) \($0.kind) \($0.size ?? -1)" }.sorted()
                #expect(own == fromTree, "\(covered)")
            }
        } else if let first {
            // sabre: the root's children only, which are right.
            #expect(first.coveredFolders == ["/"])
            #expect(first.listing(of: "/")?.items.map(\.name).sorted() == ["a.txt", "b.txt", "sub", "zz-empty"])
        }
        let before = counting.total
        let second = try await provider.listTree(.root, fields: [], maxEntries: 1000)
        // Proven: one request for the whole tree; not honoured: none at all.
        #expect(counting.total - before == (honours ? 1 : 0), "\(name): \(counting.total - before) requests")
        #expect((second != nil) == honours)
        if honours { #expect(second?.listing(of: "/sub/deep")?.items.map(\.name) == ["d.txt"]) }
    }
}

import Foundation
import HTTPProviderKit
import ProviderAPI
import ProviderTesting
import StrataTestSupport
import Testing
import TransferEngine
import WebDAVProvider

/// A tree of 100 folders on Apache, which answers `Depth: infinity` whole: once the provider has
/// proven it, a copy from it or a check against it lists the whole tree in one `PROPFIND`
/// (beside the stat of its root), where the walk sent one per folder (101).
@Suite("tree transfers from a server proven to list whole trees", .liveServers, .serialized)
struct TreeRequestCountTests {
    @Test("copy from and check against Apache: one PROPFIND Depth: infinity for the tree of 101 folders, the proof once")
    func apacheTree() async throws {
        let server = try LiveWebDAVServer.named("apache")
        let setup = try await WebDAVProvider.connect(ProviderConfiguration(url: server.url, credentials: server.credentials, transport: AsyncHTTPClientTransport.shared))
        let base = try ItemPath("tree-\(UInt64.random(in: 0...UInt64.max))")
        _ = try await setup.createFolder(named: base.name, in: .root)
        defer { Task { try? await setup.delete(base) } }
        _ = try await setup.upload(data: Data("top".utf8), to: try base.appending("top.txt"))
        for index in 0..<100 {
            let folder = try base.appending("d\(index)")
            _ = try await setup.createFolder(named: folder.name, in: base)
            _ = try await setup.upload(data: Data("\(index)".utf8), to: try folder.appending("f.txt"))
        }
        let recorder = RecordingTransport(passingTo: AsyncHTTPClientTransport.shared)
        let provider = try await WebDAVProvider.connect(ProviderConfiguration(url: server.url, credentials: server.credentials, transport: recorder))
        let manager = TransferManager(options: .testing())
        let local = try LocalTree()
        let propfinds = { recorder.requests.filter { $0.method.rawValue == "PROPFIND" }.count }

        var before = propfinds()
        let copy = try await manager.copy(from: TransferEndpoint(provider, at: base), to: local.endpoint)
        #expect(copy.succeeded)
        #expect(try local.listing().count == 201)
        let firstCopy = propfinds() - before
        before = propfinds()
        let check = try await manager.check(local.endpoint, against: TransferEndpoint(provider, at: base))
        #expect(check.matching == 101 && check.missing.isEmpty && check.extra.isEmpty && check.differing.isEmpty)
        let provenCheck = propfinds() - before
        before = propfinds()
        let again = try await manager.copy(from: TransferEndpoint(provider, at: base), to: local.endpoint)
        #expect(again.succeeded)
        let provenCopy = propfinds() - before
        print("PROPFIND for a 101-folder tree on Apache: first copy \(firstCopy), check \(provenCheck), copy again \(provenCopy)")
        // The root's stat, the tree, and (the first time) one folder's Depth: 1 listing as proof.
        #expect(firstCopy == 3)
        #expect(provenCheck == 2)
        #expect(provenCopy == 2)
    }
}

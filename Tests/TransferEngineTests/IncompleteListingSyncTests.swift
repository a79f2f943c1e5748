import Foundation
import HTTPProviderKit
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import Testing
import TransferEngine

/// A source listing that does not prove itself whole is never the ground for a deletion.
@Suite("sync from a source listing that is not complete deletes nothing")
struct IncompleteListingSyncTests {
    /// The source's listings of `folder` said to be `completeness` (its pages pass through unchanged otherwise).
    struct Incomplete: ForwardingProvider {
        let base: any StorageProvider
        let folder: ItemPath
        let completeness: ListingCompleteness

        func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
            var answer = try await base.list(folder, page: page)
            if folder == self.folder { answer.completeness = completeness }
            return answer
        }
    }

    @Test("a partial or cached source listing of a folder plans no deletion of its extras, and the sync fails saying why", arguments: [
        ListingCompleteness.partial, .cached,
    ])
    func partialSource(_ completeness: ListingCompleteness) async throws {
        let source = try LocalTree()
        try source.fillSample()
        let destination = try LocalTree()
        _ = try await TransferManager(options: .testing()).copy(from: source.endpoint, to: destination.endpoint)
        try destination.write("docs/extra.txt", "kept")
        let incomplete = Incomplete(base: source.provider, folder: "/docs", completeness: completeness)
        let report = try await TransferManager(options: .testing()).sync(from: TransferEndpoint(incomplete), to: destination.endpoint)
        #expect(!report.succeeded)
        #expect(destination.exists("docs/extra.txt"))
        #expect(!report.plan.actions.contains { $0.kind == .delete && $0.relativePath == "/docs/extra.txt" })
        let failure = try #require(report.failures.first { $0.relativePath == "/docs" })
        #expect(failure.error.code == .preconditionFailed)
        #expect(failure.message.contains("nothing in /docs is deleted"), "\(failure.message)")
        // A complete listing of the same folder deletes the extra.
        let complete = try await TransferManager(options: .testing()).sync(from: source.endpoint, to: destination.endpoint)
        #expect(complete.succeeded)
        #expect(!destination.exists("docs/extra.txt"))
    }

    @Test("sync from a Nuxeo source whose @children page contradicts itself deletes nothing on a local destination", arguments: [
        NuxeoFaults.ListingContradiction.countWithoutEntries, .shortPageSaysMore,
    ])
    func nuxeoContradiction(_ contradiction: NuxeoFaults.ListingContradiction) async throws {
        let password = "nx-\(UInt32.random(in: 0...UInt32.max))"
        var configuration = NuxeoTestServer.Configuration()
        configuration.users = ["ann": password]
        let server = try await NuxeoTestServer.start(configuration)
        defer { Task { await server.stop() } }
        let workspace = server.baseURL.absoluteString + "/default-domain/workspaces/strata"
        let settings = { (url: String) in
            ProviderConfiguration(
                url: URL(string: url) ?? URL(fileURLWithPath: "/"), credentials: .basic(username: "ann", password: password),
                transport: AsyncHTTPClientTransport.shared)
        }
        let root = try await NuxeoProvider.connect(settings(workspace))
        _ = try await root.createFolder(named: "src", in: .root)
        let nuxeo = try await NuxeoProvider.connect(settings(workspace + "/src"))
        for index in 0..<5 {
            _ = try await nuxeo.upload(data: Data("file \(index)".utf8), to: try ItemPath("/f\(index).txt"))
        }
        let destination = try LocalTree()
        let first = try await TransferManager(options: .testing()).sync(from: TransferEndpoint(nuxeo), to: destination.endpoint)
        #expect(first.succeeded)
        let before = try destination.listing()
        #expect(before.count == 5)

        server.faults.contradictListings(contradiction)
        do {
            let report = try await TransferManager(options: .testing()).sync(from: TransferEndpoint(nuxeo), to: destination.endpoint)
            #expect(!report.succeeded)
            #expect(report.deleted == 0)
        } catch let error as ProviderError {
            #expect(error.code == .invalidResponse, "\(error)")
        }
        #expect(try destination.listing() == before)
    }
}

import Foundation
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import Testing

/// `@children` pages that contradict themselves are refused, never read as the end of the folder.
@Suite("Nuxeo listings that contradict themselves on the loopback server")
struct NuxeoContradictionTests {
    /// A scratch folder with five files, on a fresh server.
    static func folderOfFive() async throws -> (LoopbackNuxeo, NuxeoProvider) {
        let nuxeo = try await LoopbackNuxeo.start()
        let provider = try await nuxeo.scratch()
        for index in 0..<5 {
            _ = try await provider.upload(DataSource(string: "\(index)"), to: .root, name: "f\(index).txt", options: UploadOptions())
        }
        return (nuxeo, provider)
    }

    @Test("resultsCount 5 and no entries is invalidResponse, not an empty folder", arguments: [nil, 3, 1000])
    func countWithoutEntries(pageSize: Int?) async throws {
        let (nuxeo, provider) = try await Self.folderOfFive()
        defer { Task { await nuxeo.stop() } }
        nuxeo.server.faults.contradictListings(.countWithoutEntries)
        let error = await #expect(throws: ProviderError.self) { _ = try await provider.listAll(.root, pageSize: pageSize) }
        #expect(error?.code == .invalidResponse)
        let message = error?.message ?? ""
        #expect(message.contains("the listing of /"), "\(message)")
        nuxeo.server.faults.contradictListings(nil)
        let listing = try await provider.listing(.root, pageSize: pageSize)
        #expect(listing.items.count == 5)
        #expect(listing.completeness.isComplete)
    }

    @Test("1 entry of a page size of 1000 that says another page follows is invalidResponse, not the end", arguments: [nil, 1000])
    func shortPageSaysMore(pageSize: Int?) async throws {
        let (nuxeo, provider) = try await Self.folderOfFive()
        defer { Task { await nuxeo.stop() } }
        nuxeo.server.faults.contradictListings(.shortPageSaysMore)
        let error = await #expect(throws: ProviderError.self) { _ = try await provider.listAll(.root, pageSize: pageSize) }
        #expect(error?.code == .invalidResponse)
        let message = error?.message ?? ""
        #expect(message.contains("another page follows"), "\(message)")
    }

    @Test("a listing by pages counted by the server is counted")
    func counted() async throws {
        let (nuxeo, provider) = try await Self.folderOfFive()
        defer { Task { await nuxeo.stop() } }
        // Within a page the server counts (above it, it says -2: then the listing only ended).
        let whole = try await provider.listing(.root)
        #expect(whole.items.count == 5)
        #expect(whole.completeness == .counted)
        let paged = try await provider.listing(.root, pageSize: 2)
        #expect(paged.items.map(\.name) == whole.items.map(\.name))
        #expect(paged.completeness.isComplete)
    }
}

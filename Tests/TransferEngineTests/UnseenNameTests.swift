import Foundation
import ProviderAPI
import ProviderConformance
import Testing

@testable import TransferEngine

/// A file the plan saw no destination item for is uploaded only where nothing is: a name the
/// destination's listing did not show but the destination holds is a conflict, never overwritten.
@Suite("transfers: a name the listing did not show is never overwritten")
struct UnseenNameTests {
    /// A store that folds case (keeping the first spelling of a name, as ext4 with `chattr +F`
    /// does) while declaring case-sensitive names, as a local folder made case-folding below the
    /// root, or a server that lies, looks: an upload under another spelling of a name it holds
    /// goes to that item (over it, or refused with `.fail`).
    private struct UndeclaredFolding: ForwardingProvider {
        /// A server of its own account and location (`MemoryServer(host:)`).
        let base: any StorageProvider

        func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
            let held = try await base.listAll(folder, pageSize: 100, fields: []).first { $0.name.lowercased() == name.lowercased() }
            return try await base.upload(source, to: folder, name: held?.name ?? name, options: options)
        }
    }

    @Test("A.txt and a.txt onto a destination that folds case without saying so: one copied, one conflict, neither overwritten")
    func undeclaredCaseFolding() async throws {
        let source = MemoryServer()
        _ = try await source.provider.createFolder(named: "d", in: .root)
        _ = try await source.provider.upload(data: Data("upper".utf8), to: "/d/A.txt")
        _ = try await source.provider.upload(data: Data("lower".utf8), to: "/d/a.txt")
        let destination = UndeclaredFolding(base: MemoryServer(host: "folding").provider)
        // One file at a time: the folding above is a lookup then a write, which a real file system
        // does atomically and this store does not.
        let report = try await TransferManager(options: .testing(transfers: 1)).copy(from: source.endpoint, to: TransferEndpoint(destination))
        #expect(report.filesCopied == 1)
        #expect(report.failures.map(\.error.code) == [.conflict], "\(report.failures)")
        let held = try await destination.listAll("/d", pageSize: 10, fields: [])
        #expect(held.count == 1)
        // The file there is the one of its own name, whole: the other did not overwrite it.
        let name = try #require(held.first?.name)
        #expect(try await destination.data(at: ItemPath("/d").appending(name)) == source.provider.data(at: ItemPath("/d").appending(name)))
    }

    @Test("a file stored by an attempt whose answer was lost is taken as copied by the next attempt, not a conflict")
    func lostAnswerThenRetry() async throws {
        let source = MemoryServer()
        let bytes = Data("the content".utf8)
        _ = try await source.provider.upload(data: bytes, to: "/f.txt")
        let destination = MemoryServer(host: "destination")
        destination.faults.inject(.answerLost, method: "PUT")
        let report = try await TransferManager(options: .testing()).copy(from: source.endpoint, to: destination.endpoint)
        #expect(destination.faults.appliedFaults == 1)
        #expect(report.succeeded, "\(report.failures)")
        #expect(report.filesCopied == 1)
        #expect(try await destination.provider.data(at: "/f.txt") == bytes)
    }

    @Test("a file the destination changed since the plan is overwritten only as planned: a differing file, not a missing one")
    func missingUploadsExclusively() {
        let copier = FileCopier(
            source: MemoryServer().endpoint, destination: MemoryServer(host: "d").endpoint, options: .testing(), observer: nil,
            counter: JobCounter(total: JobProgress(), observer: nil))
        let missing = TransferAction(
            kind: .copyFile, reason: .missing, relativePath: "/a", source: "/a", destination: "/a", isFolder: false, size: 1)
        var differs = missing
        differs.reason = .differs
        #expect(copier.uploadOptions(missing).conflict == .fail)
        #expect(copier.uploadOptions(differs).conflict == .overwrite)
    }
}

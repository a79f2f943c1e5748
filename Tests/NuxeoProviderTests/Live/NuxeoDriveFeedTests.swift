import Foundation
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import Testing

/// The change feed through Nuxeo Drive's change summary, against the loopback server.
@Suite("Nuxeo Drive change feed on the loopback server")
struct NuxeoDriveFeedTests {
    @Test("changes=drive registers the root and reports creations, modifications and deletions")
    func driveFeed() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch(options: ["changes": "drive"])
        let start = try await provider.changes(since: nil)
        #expect(start.next.rawValue.hasPrefix("drive|"))
        #expect(nuxeo.server.requests().contains { $0.path.hasSuffix("NuxeoDrive.SetSynchronization") })
        let file = try await provider.upload(DataSource(string: "d"), to: .root, name: "d.txt", options: UploadOptions())
        let first = try await provider.changes(since: start.next)
        #expect(first.changes.contains { $0.path == file.path && $0.kind == .created && $0.item?.id == file.id })
        _ = try await provider.upload(DataSource(string: "dd"), to: .root, name: "d.txt", options: UploadOptions(conflict: .overwrite))
        let second = try await provider.changes(since: first.next)
        #expect(second.changes.map(\.path) == [file.path])
        #expect(second.changes.first?.item?.size == 2)
        try await provider.delete(file.path)
        let third = try await provider.changes(since: second.next)
        #expect(third.changes.map(\.kind) == [.deleted])
        #expect(third.changes.first?.path == file.path)
        let quiet = try await provider.changes(since: third.next)
        #expect(quiet.changes.isEmpty)
    }

    @Test("auto uses the query feed unless the root is already a synchronization root")
    func autoChoice() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let plain = try await nuxeo.scratch()
        #expect(!(try await plain.changes(since: nil).next.rawValue.hasPrefix("drive|")))
        let registered = try await nuxeo.scratch(options: ["changes": "drive"])
        _ = try await registered.changes(since: nil)
        let again = try await nuxeo.provider(root: registered.settings.rootPath)
        #expect(try await again.changes(since: nil).next.rawValue.hasPrefix("drive|"))
    }

    @Test("too many changes ask for a full rescan")
    func tooManyChanges() async throws {
        var configuration = NuxeoTestServer.Configuration()
        configuration.users = [LoopbackNuxeo.user: LoopbackNuxeo.password]
        configuration.driveChangeLimit = 3
        let nuxeo = LoopbackNuxeo(server: try await NuxeoTestServer.start(configuration))
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch(options: ["changes": "drive"])
        let start = try await provider.changes(since: nil)
        for index in 0..<5 {
            _ = try await provider.upload(DataSource(string: "\(index)"), to: .root, name: "\(index).txt", options: UploadOptions())
        }
        let batch = try await provider.changes(since: start.next)
        #expect(batch.resetRequired)
        #expect(batch.changes.isEmpty)
    }
}

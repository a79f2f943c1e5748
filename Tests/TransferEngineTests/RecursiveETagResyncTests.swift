import Foundation
import HTTPProviderKit
import NIOConcurrencyHelpers
import NextcloudTestServer
import ProviderAPI
import SharedCache
import Testing
import TransferEngine
import WebDAVProvider

/// A re-run of `sync` and `check` between two loopback Nextcloud servers, whose folder etags change
/// when anything below them changes (`recursiveETags`): the job records each folder's etags on both
/// sides, and the next run lists only the folders on the way to a change. Requests are logged per
/// side (method, path, PROPFIND depth).
@Suite("re-sync over recursive folder etags")
struct RecursiveETagResyncTests {
    /// The requests one side sent: method, path below the server, and the `Depth` of a PROPFIND.
    final class RequestLog: HTTPTransport {
        struct Entry: Sendable, Hashable {
            var method: String
            var path: String
            var depth: String?
        }

        private let base: any HTTPTransport
        private let entries = NIOLockedValueBox<[Entry]>([])

        init(_ base: any HTTPTransport = AsyncHTTPClientTransport.shared) { self.base = base }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let entry = Entry(
                method: request.method.rawValue, path: request.url.path.removingPercentEncoding ?? request.url.path,
                depth: request.headers.first(name: "Depth"))
            entries.withLockedValue { $0.append(entry) }
            return try await base.send(request)
        }

        var all: [Entry] { entries.withLockedValue { $0 } }
        /// The requests sent since `mark` (a count of ``all``).
        func since(_ mark: Int) -> [Entry] { Array(all.dropFirst(mark)) }
    }

    /// A loopback Nextcloud server, the provider rooted at a fresh folder of alice's files.
    struct Side: Sendable {
        let server: NextcloudTestServer
        let provider: any StorageProvider
        let log: RequestLog
        /// The provider's root folder on the server, as request paths begin.
        let prefix: String

        static func start() async throws -> Side {
            let password = "nc-\(UInt32.random(in: 0...UInt32.max))"
            let server = try await NextcloudTestServer.start(NextcloudTestServer.Configuration(users: ["alice": password]))
            do {
                let files = server.baseURL.absoluteString.trimmingSuffix("/") + "/remote.php/dav/files/alice"
                let folder = PairServer.folderName()
                let log = RequestLog()
                let root = try await OwnCloudProviderFactory.connect(configuration(files + "/", password, log), flavor: .nextcloud)
                _ = try await root.createFolder(named: folder, in: .root)
                let provider = try await OwnCloudProviderFactory.connect(configuration(files + "/" + folder + "/", password, log), flavor: .nextcloud)
                return Side(server: server, provider: provider, log: log, prefix: "/remote.php/dav/files/alice/" + folder)
            } catch {
                await server.stop()
                throw error
            }
        }

        private static func configuration(_ url: String, _ password: String, _ transport: any HTTPTransport) -> ProviderConfiguration {
            ProviderConfiguration(
                url: URL(string: url) ?? URL(fileURLWithPath: "/"), credentials: .basic(username: "alice", password: password), transport: transport)
        }

        /// The folders listed (PROPFIND, Depth 1) since `mark`, as paths below the provider's root ("/" for it).
        func listed(since mark: Int) -> [String] {
            log.since(mark).filter { $0.method == "PROPFIND" && $0.depth == "1" }.map { relative($0.path) }.sorted()
        }

        func relative(_ path: String) -> String {
            let rest = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
            let trimmed = rest.hasSuffix("/") ? String(rest.dropLast()) : rest
            return trimmed.isEmpty ? "/" : trimmed
        }
    }

    /// The tree: 50 files in 8 folders, 3 levels deep below the root.
    static let folders = ["/", "/a", "/a/b", "/a/b/c", "/a/d", "/e", "/e/f", "/g"]
    static let filesPerFolder = [5, 6, 7, 8, 6, 6, 6, 6]

    static func fill(_ provider: any StorageProvider) async throws {
        for folder in folders.dropFirst() {
            let path = try ItemPath(folder)
            _ = try await provider.createFolder(named: path.name, in: path.parent)
        }
        for (folder, count) in zip(folders, filesPerFolder) {
            for index in 0..<count {
                let name = "file\(index).txt"
                _ = try await provider.upload(
                    DataSource(string: "\(folder) \(name)"), to: try ItemPath(folder), name: name, options: UploadOptions())
            }
        }
    }

    /// Two Nextcloud servers, the source filled with the tree and synced once to the destination.
    static func synced(_ jobs: TransferJobTests.Jobs) async throws -> (Side, Side, TransferManager) {
        let source = try await Side.start()
        let destination = try await Side.start()
        try await fill(source.provider)
        var options = TransferManager.Options.testing()
        options.pageSize = 1000
        options.jobStore = jobs.store
        let manager = TransferManager(options: options)
        let first = try await manager.sync(from: endpoint(source), to: endpoint(destination))
        #expect(first.succeeded, "\(first.failures)")
        #expect(first.filesCopied == 50)
        return (source, destination, manager)
    }

    static func endpoint(_ side: Side) -> TransferEndpoint { TransferEndpoint(side.provider, at: .root) }

    static func stop(_ sides: Side...) async {
        for side in sides { await side.server.stop() }
    }

    @Test("an unchanged tree: one PROPFIND (Depth 0 of the root) per side, for sync and for check")
    func unchanged() async throws {
        let jobs = try TransferJobTests.Jobs()
        let (source, destination, manager) = try await Self.synced(jobs)
        #expect(source.provider.capabilities.features.contains(.recursiveETags))

        let marks = (source.log.all.count, destination.log.all.count)
        let again = try await manager.sync(from: Self.endpoint(source), to: Self.endpoint(destination))
        #expect(again.succeeded)
        #expect(again.plan.changesNothing)
        #expect(again.unchanged == 50)
        #expect(source.log.since(marks.0).map { RequestLog.Entry(method: $0.method, path: source.relative($0.path), depth: $0.depth) }
            == [RequestLog.Entry(method: "PROPFIND", path: "/", depth: "0")], "\(source.log.since(marks.0))")
        #expect(destination.log.since(marks.1).map { RequestLog.Entry(method: $0.method, path: destination.relative($0.path), depth: $0.depth) }
            == [RequestLog.Entry(method: "PROPFIND", path: "/", depth: "0")], "\(destination.log.since(marks.1))")

        // The first check lists every folder and records them; the second reads the two roots only.
        let checkFirst = (source.log.all.count, destination.log.all.count)
        let check = try await manager.check(Self.endpoint(source), against: Self.endpoint(destination))
        #expect(check.isIdentical)
        #expect(check.matching == 50)
        #expect(source.listed(since: checkFirst.0) == Self.folders.sorted())
        let checkAgain = (source.log.all.count, destination.log.all.count)
        let second = try await manager.check(Self.endpoint(source), against: Self.endpoint(destination))
        #expect(second.isIdentical)
        #expect(second.matching == 50)
        #expect(source.log.since(checkAgain.0).count == 1, "\(source.log.since(checkAgain.0))")
        #expect(destination.log.since(checkAgain.1).count == 1, "\(destination.log.since(checkAgain.1))")
        await Self.stop(source, destination)
    }

    @Test("a file changed three levels down: only the four folders on its way are listed, one file is copied")
    func deepChange() async throws {
        let jobs = try TransferJobTests.Jobs()
        let (source, destination, manager) = try await Self.synced(jobs)
        _ = try await source.provider.upload(
            DataSource(string: "changed, and longer than before"), to: "/a/b/c", name: "file3.txt", options: UploadOptions(conflict: .overwrite))

        let marks = (source.log.all.count, destination.log.all.count)
        let again = try await manager.sync(from: Self.endpoint(source), to: Self.endpoint(destination))
        #expect(again.succeeded)
        #expect(again.filesCopied == 1)
        #expect(again.plan.actions(.copyFile).map(\.relativePath) == ["/a/b/c/file3.txt"])
        #expect(again.unchanged == 49)
        let path = ["/", "/a", "/a/b", "/a/b/c"]
        #expect(source.listed(since: marks.0) == path)
        #expect(destination.listed(since: marks.1) == path)
        // Source: a stat of the root, the four listings, and the changed file's GET (verified
        // against the answer's own OC-Checksum: no stat of the file first).
        let read = source.log.since(marks.0).map { "\($0.method) \(source.relative($0.path)) \($0.depth ?? "-")" }
        #expect(read == ["PROPFIND / 0"] + path.map { "PROPFIND \($0) 1" } + ["GET /a/b/c/file3.txt -"])
        // Destination: a stat of the root, the four listings, the PUT, and a stat of each folder
        // the run wrote below, whose etags the job records for the next run.
        let written = destination.log.since(marks.1).map { "\($0.method) \(destination.relative($0.path)) \($0.depth ?? "-")" }
        #expect(Array(written.prefix(6)) == ["PROPFIND / 0"] + path.map { "PROPFIND \($0) 1" } + ["PUT /a/b/c/file3.txt -"], "\(written)")
        #expect(written.dropFirst(6).sorted() == path.map { "PROPFIND \($0) 0" }.sorted(), "\(written)")
        let copied = try await destination.provider.item(at: "/a/b/c/file3.txt")
        #expect(copied.size == Int64("changed, and longer than before".utf8.count))

        // The record follows the run: the next re-sync reads the two roots only.
        let third = (source.log.all.count, destination.log.all.count)
        #expect(try await manager.sync(from: Self.endpoint(source), to: Self.endpoint(destination)).plan.changesNothing)
        #expect(source.log.since(third.0).count == 1, "\(source.log.since(third.0))")
        #expect(destination.log.since(third.1).count == 1, "\(destination.log.since(third.1))")
        await Self.stop(source, destination)
    }

    @Test("a file deleted on the destination is found and sent again; an extra one there is deleted")
    func destinationChange() async throws {
        let jobs = try TransferJobTests.Jobs()
        let (source, destination, manager) = try await Self.synced(jobs)
        try await destination.provider.delete("/a/d/file2.txt")
        _ = try await destination.provider.upload(DataSource(string: "extra"), to: "/e/f", name: "extra.txt", options: UploadOptions())

        let marks = (source.log.all.count, destination.log.all.count)
        let again = try await manager.sync(from: Self.endpoint(source), to: Self.endpoint(destination))
        #expect(again.succeeded)
        #expect(again.plan.actions(.copyFile).map(\.relativePath) == ["/a/d/file2.txt"])
        #expect(again.plan.actions(.delete).map(\.relativePath) == ["/e/f/extra.txt"])
        #expect(try await destination.provider.itemIfExists(at: "/a/d/file2.txt") != nil)
        #expect(try await destination.provider.itemIfExists(at: "/e/f/extra.txt") == nil)
        let path = ["/", "/a", "/a/d", "/e", "/e/f"]
        #expect(source.listed(since: marks.0) == path)
        #expect(destination.listed(since: marks.1) == path)
        await Self.stop(source, destination)
    }

    @Test("--fresh ignores the record: every folder is listed again")
    func freshListsAll() async throws {
        let jobs = try TransferJobTests.Jobs()
        let (source, destination, manager) = try await Self.synced(jobs)
        var options = manager.options
        options.startFresh = true
        let marks = (source.log.all.count, destination.log.all.count)
        #expect(try await TransferManager(options: options).sync(from: Self.endpoint(source), to: Self.endpoint(destination)).succeeded)
        #expect(source.listed(since: marks.0) == Self.folders.sorted())
        #expect(destination.listed(since: marks.1) == Self.folders.sorted())

        await Self.stop(source, destination)
    }

    @Test("a failed run records nothing: the next run lists what changed")
    func failedRunRecordsNothing() async throws {
        let jobs = try TransferJobTests.Jobs()
        let (source, destination, manager) = try await Self.synced(jobs)
        _ = try await source.provider.upload(DataSource(string: "new"), to: "/g", name: "new.txt", options: UploadOptions())
        var options = manager.options
        options.maxDelete = 0
        _ = try await destination.provider.upload(DataSource(string: "extra"), to: "/e", name: "extra.txt", options: UploadOptions())
        let limited = try await TransferManager(options: options).sync(from: Self.endpoint(source), to: Self.endpoint(destination))
        #expect(!limited.succeeded)
        #expect(limited.deletionLimitExceeded)

        let marks = (source.log.all.count, destination.log.all.count)
        let again = try await manager.sync(from: Self.endpoint(source), to: Self.endpoint(destination))
        #expect(again.succeeded)
        #expect(again.plan.actions(.delete).map(\.relativePath) == ["/e/extra.txt"])
        #expect(source.listed(since: marks.0) == ["/", "/e", "/g"])
        await Self.stop(source, destination)
    }

    @Test("Apache → Nextcloud: Apache's folder etags are not recursive, so both sides read every folder again (Apache's whole tree in one request)")
    func apacheToNextcloud() async throws {
        let jobs = try TransferJobTests.Jobs()
        let (nextcloud, destination, manager) = try await Self.synced(jobs)
        let apache = try await PairServer.live("apache")
        defer { Task { await apache.stop() } }
        #expect(!apache.provider.capabilities.features.contains(.recursiveETags))
        let from = try apache.endpoint("tree")
        #expect(try await manager.sync(from: Self.endpoint(nextcloud), to: from).succeeded)
        let to = TransferEndpoint(destination.provider, at: "/from-apache")
        #expect(try await manager.sync(from: from, to: to).filesCopied == 50)

        let propfinds = apache.counting.count(of: "PROPFIND")
        let mark = destination.log.all.count
        let again = try await manager.sync(from: from, to: to)
        #expect(again.succeeded)
        #expect(again.plan.changesNothing)
        #expect(again.unchanged == 50)
        // A stat of the root and the whole tree in one PROPFIND Depth: infinity (Apache was proven
        // to answer it whole by the syncs before); Nextcloud lists every folder.
        #expect(apache.counting.count(of: "PROPFIND") - propfinds == 2)
        #expect(destination.listed(since: mark) == Self.folders.map { $0 == "/" ? "/from-apache" : "/from-apache" + $0 }.sorted())
        await Self.stop(nextcloud, destination)
    }

    @Test("a CachedProvider source counts by its base: one request per side; with an offline write waiting, every folder is listed")
    func cachedSource() async throws {
        let jobs = try TransferJobTests.Jobs()
        let source = try await Side.start()
        let destination = try await Side.start()
        try await Self.fill(source.provider)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-cached-source-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cached = CachedProvider(wrapping: source.provider, store: try CacheStore(directory: folder), offlineWrites: .always)
        #expect(cached.capabilities.features.contains(.recursiveETags))
        var options = TransferManager.Options.testing()
        options.pageSize = 1000
        options.jobStore = jobs.store
        let manager = TransferManager(options: options)
        let from = TransferEndpoint(cached, at: .root)
        #expect(try await manager.sync(from: from, to: Self.endpoint(destination)).filesCopied == 50)

        let marks = (source.log.all.count, destination.log.all.count)
        #expect(try await manager.sync(from: from, to: Self.endpoint(destination)).plan.changesNothing)
        #expect(source.log.since(marks.0).count == 1, "\(source.log.since(marks.0))")
        #expect(destination.log.since(marks.1).count == 1, "\(destination.log.since(marks.1))")

        // An upload kept in the journal: the server's etags do not show it, the cached listing does.
        _ = try await cached.upload(DataSource(string: "written offline"), to: "/a/b", name: "offline.txt", options: UploadOptions())
        let pending = source.log.all.count
        let again = try await manager.sync(from: from, to: Self.endpoint(destination))
        #expect(again.plan.actions(.copyFile).map(\.relativePath) == ["/a/b/offline.txt"])
        #expect(source.listed(since: pending) == Self.folders.sorted())
        await Self.stop(source, destination)
    }
}

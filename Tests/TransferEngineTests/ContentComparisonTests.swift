import Foundation
import ProviderAPI
import ProviderConformance
import SharedCache
import Testing
import TransferEngine

/// `check --download` and `copy/sync --checksum`: content compared, never sizes and times alone.
@Suite("content comparison: check --download and --checksum")
struct ContentComparisonTests {
    /// A server whose listings and stats say every file's SHA-256 is the same made-up value.
    struct LyingDigests: ForwardingProvider {
        let base: any StorageProvider
        let account = ProviderAccount(kind: "memory", server: "http://lying")

        static func lie(_ item: Item) -> Item {
            var item = item
            if item.kind == .file { item.digests[.sha256] = String(repeating: "0", count: 64) }
            return item
        }

        func item(at path: ItemPath) async throws -> Item { Self.lie(try await base.item(at: path)) }
        func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
            var listed = try await base.list(folder, page: page)
            listed.items = listed.items.map(Self.lie)
            return listed
        }
    }

    /// A server that declares digests but whose listings leave them out.
    struct DroppedDigests: ForwardingProvider {
        let base: any StorageProvider
        let account = ProviderAccount(kind: "memory", server: "http://dropped")

        func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
            var listed = try await base.list(folder, page: page)
            listed.items = listed.items.map { var item = $0; item.digests = [:]; return item }
            return listed
        }
    }

    /// Rewrites `relative` in `tree` with `text` (the same size), its modified time set back to what it was.
    static func rewriteKeepingTime(_ tree: LocalTree, _ relative: String, _ text: String) throws {
        let path = tree.url.appendingPathComponent(relative).path
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        try tree.write(relative, text)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
    }

    @Test("a file rewritten at the same size with its time set back passes the default check, which says content was not compared; check --download finds it")
    func downloadFindsTimeSetBack() async throws {
        let source = try LocalTree()
        try source.fillSample()
        let destination = try LocalTree()
        let manager = TransferManager(options: .testing())
        #expect(try await manager.copy(from: source.endpoint, to: destination.endpoint).succeeded)
        try Self.rewriteKeepingTime(destination, "docs/readme.md", "# READ ME\n")

        let listings = try await manager.check(source.endpoint, against: destination.endpoint)
        #expect(listings.isIdentical)
        #expect(listings.rule.kind == .sizeAndModified)
        #expect(listings.matchedBy == ComparisonCounts(sizeAndModified: 9))
        #expect(listings.contentNotCompared == 9)

        var options = TransferManager.Options.testing()
        options.comparison = .content
        let content = try await TransferManager(options: options).check(source.endpoint, against: destination.endpoint)
        #expect(content.rule.kind == .content)
        #expect(content.differing == ["/docs/readme.md"])
        #expect(content.matching == 8)
        #expect(content.matchedBy == ComparisonCounts(content: 8))
        #expect(content.contentNotCompared == 0)
        // The same the other way round.
        let back = try await TransferManager(options: options).check(destination.endpoint, against: source.endpoint)
        #expect(back.differing == ["/docs/readme.md"])
    }

    @Test("check --download reads both files whatever digests the listings give")
    func downloadIgnoresListedDigests() async throws {
        let left = MemoryServer(host: "left")
        let right = MemoryServer()
        let lying = LyingDigests(base: right.provider)
        let when = Date(timeIntervalSince1970: 1_700_000_000)
        _ = try await left.provider.upload(data: Data("abcdef".utf8), to: "/f.txt", options: UploadOptions(modified: when))
        _ = try await right.provider.upload(data: Data("abcdeF".utf8), to: "/f.txt", options: UploadOptions(modified: when))
        _ = try await left.provider.upload(data: Data("same".utf8), to: "/g.txt", options: UploadOptions(modified: when))
        _ = try await right.provider.upload(data: Data("same".utf8), to: "/g.txt", options: UploadOptions(modified: when))
        var options = TransferManager.Options.testing()
        options.comparison = .content
        let check = try await TransferManager(options: options).check(left.endpoint, against: TransferEndpoint(lying))
        #expect(check.differing == ["/f.txt"])
        #expect(check.matching == 1)
        #expect(left.counting.count(of: "GET") == 2 && right.counting.count(of: "GET") == 2)
    }

    @Test("--checksum sends again a file of the same size and modified time whose content differs; the default does not")
    func checksumResends() async throws {
        let source = try LocalTree()
        try source.fillSample()
        let destination = try LocalTree()
        let manager = TransferManager(options: .testing())
        #expect(try await manager.copy(from: source.endpoint, to: destination.endpoint).succeeded)
        try Self.rewriteKeepingTime(destination, "docs/readme.md", "# READ ME\n")
        #expect(try await manager.sync(from: source.endpoint, to: destination.endpoint).filesCopied == 0)

        var options = TransferManager.Options.testing()
        options.comparison = .checksum
        let checksum = try await TransferManager(options: options).sync(from: source.endpoint, to: destination.endpoint)
        #expect(checksum.plan.rule == SameFileRule(kind: .checksum, algorithm: .sha256, computedOn: [.source, .destination]))
        #expect(checksum.filesCopied == 1)
        #expect(checksum.plan.actions(.copyFile).map(\.relativePath) == ["/docs/readme.md"])
        #expect(checksum.plan.matchedBy == ComparisonCounts(content: 8))
        #expect(try destination.read("docs/readme.md") == Data("# read me\n".utf8))
    }

    @Test("--checksum computes a digest a listing left out, even on the side that declares it: never size and time alone")
    func checksumComputesWhatListingsLeaveOut() async throws {
        let server = MemoryServer()
        let dropped = DroppedDigests(base: server.provider)
        let local = try LocalTree()
        try local.write("same.txt", "same")
        try local.write("changed.txt", "abcdef")
        let when = Date(timeIntervalSince1970: 1_700_000_000)
        for name in ["same.txt", "changed.txt"] {
            try FileManager.default.setAttributes([.modificationDate: when], ofItemAtPath: local.url.appendingPathComponent(name).path)
        }
        _ = try await server.provider.upload(data: Data("same".utf8), to: "/same.txt", options: UploadOptions(modified: when))
        _ = try await server.provider.upload(data: Data("abcdeF".utf8), to: "/changed.txt", options: UploadOptions(modified: when))
        let fallback = try await TransferManager(options: .testing()).check(TransferEndpoint(dropped), against: local.endpoint)
        #expect(fallback.isIdentical && fallback.contentNotCompared == 2)
        var options = TransferManager.Options.testing()
        options.comparison = .checksum
        let check = try await TransferManager(options: options).check(TransferEndpoint(dropped), against: local.endpoint)
        #expect(check.rule == SameFileRule(kind: .checksum, algorithm: .sha256, computedOn: [.destination]))
        #expect(check.differing == ["/changed.txt"])
        #expect(check.matchedBy == ComparisonCounts(content: 1))
        #expect(server.counting.count(of: "GET") == 2)
    }

    /// A job store in a fresh cache folder, removed with the value.
    final class Jobs: Sendable {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-jobs-\(UUID().uuidString)", isDirectory: true)
        let store: SQLiteTransferJobStore

        init() throws { store = SQLiteTransferJobStore(cache: try CacheStore(directory: folder)) }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    @Test("--checksum reads the files on every run, never a digest kept for the same size and time: a same-size file with its time set back is sent again")
    func checksumNeverRecalls() async throws {
        let jobs = try Jobs()
        let source = try LocalTree()
        try source.fillSample()
        let destination = try LocalTree()
        var options = TransferManager.Options.testing()
        options.comparison = .checksum
        options.jobStore = jobs.store
        let manager = TransferManager(options: options)
        #expect(try await manager.sync(from: source.endpoint, to: destination.endpoint).filesCopied == 9)
        // Computes (and keeps) both sides' digests.
        let second = try await manager.sync(from: source.endpoint, to: destination.endpoint)
        #expect(second.plan.changesNothing && second.plan.matchedBy == ComparisonCounts(content: 9))
        try Self.rewriteKeepingTime(destination, "docs/readme.md", "# READ ME\n")
        let third = try await manager.sync(from: source.endpoint, to: destination.endpoint)
        #expect(third.plan.actions(.copyFile).map(\.relativePath) == ["/docs/readme.md"])
        #expect(try destination.read("docs/readme.md") == Data("# read me\n".utf8))

        // Between servers: each run reads both sides' files again.
        var capabilities = InMemoryProvider.basicCapabilities
        capabilities.features.insert(.setModifiedTime)
        let left = MemoryServer(capabilities: capabilities, host: "left")
        let right = MemoryServer(capabilities: capabilities, host: "right")
        for index in 0..<4 { _ = try await left.provider.upload(data: Data("file \(index)".utf8), to: try ItemPath("/f\(index).txt")) }
        #expect(try await manager.copy(from: left.endpoint, to: right.endpoint).filesCopied == 4)
        for run in 1...2 {
            let (leftReads, rightReads) = (left.counting.count(of: "GET"), right.counting.count(of: "GET"))
            let again = try await manager.copy(from: left.endpoint, to: right.endpoint)
            #expect(again.plan.changesNothing && again.plan.matchedBy.content == 4, "run \(run)")
            #expect(left.counting.count(of: "GET") == leftReads + 4 && right.counting.count(of: "GET") == rightReads + 4, "run \(run)")
        }
    }

    @Test("a digest kept from an earlier read of the same size, time and etag spares the read, and check counts that file as compared by size and time")
    func recalledDigestIsNotContent() async throws {
        let jobs = try Jobs()
        let local = try LocalTree()
        try local.fillSample()
        var md5 = InMemoryProvider.basicCapabilities
        md5.features.formUnion([.digests, .setModifiedTime])
        md5.digestAlgorithms = [.md5]
        let server = MemoryServer(capabilities: md5, host: "server")
        var options = TransferManager.Options.testing()
        options.jobStore = jobs.store
        let manager = TransferManager(options: options)
        #expect(try await manager.copy(from: local.endpoint, to: server.endpoint).succeeded)
        let first = try await manager.check(local.endpoint, against: server.endpoint)
        #expect(first.rule.algorithm == .md5 && first.rule.computedOn == [.source])
        #expect(first.matchedBy == ComparisonCounts(content: 9) && first.contentNotCompared == 0)
        let second = try await manager.check(local.endpoint, against: server.endpoint)
        #expect(second.isIdentical)
        #expect(second.matchedBy == ComparisonCounts(sizeAndModified: 9) && second.contentNotCompared == 9)
    }
}

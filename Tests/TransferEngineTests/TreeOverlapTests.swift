import Foundation
import LocalProvider
import ProviderAPI
import Testing
import TransferEngine

/// A copy or a sync between two spellings of one tree is refused before anything is written or
/// deleted: local folders through a link or `..`, and, where the locations cannot tell, by the
/// marker probe.
@Suite("copy and sync refuse two spellings of one tree")
struct TreeOverlapTests {
    /// A folder `src` holding `a.txt` and `b/keep.txt`, and the link `link` → `src` beside it.
    static func sample() throws -> LocalTree {
        let tree = try LocalTree()
        try tree.write("src/a.txt", "one")
        try tree.write("src/b/keep.txt", "two")
        try FileManager.default.createSymbolicLink(
            at: tree.url.appendingPathComponent("link"), withDestinationURL: tree.url.appendingPathComponent("src"))
        return tree
    }

    static func local(_ tree: LocalTree, _ relative: String) throws -> LocalProvider {
        try LocalProvider(root: URL(fileURLWithPath: tree.url.path + "/" + relative))
    }

    /// Expects `job` to throw `invalidArgument` saying the two spellings are one tree, and the sample untouched.
    static func expectRefused(
        _ tree: LocalTree, sourceLocation: SourceLocation = #_sourceLocation, _ job: () async throws -> TransferReport
    ) async throws {
        do {
            let report = try await job()
            Issue.record("not refused: \(report.plan.actions.map { "\($0.kind) \($0.relativePath)" })", sourceLocation: sourceLocation)
        } catch let error as ProviderError {
            #expect(error.code == .invalidArgument, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message?.contains("one tree") == true, "\(error)", sourceLocation: sourceLocation)
        }
        #expect(try tree.read("src/a.txt") == Data("one".utf8), sourceLocation: sourceLocation)
        #expect(try tree.read("src/b/keep.txt") == Data("two".utf8), sourceLocation: sourceLocation)
        let left = try FileManager.default.subpathsOfDirectory(atPath: tree.url.path).filter { $0.contains("strata-overlap-probe") }
        #expect(left.isEmpty, "markers left: \(left)", sourceLocation: sourceLocation)
    }

    @Test("local: sync of a folder into its parent spelt through a link, or with `..`, is refused; nothing is deleted")
    func localSpellings() async throws {
        let tree = try Self.sample()
        let manager = TransferManager(options: .testing())
        let sub = TransferEndpoint(try Self.local(tree, "src/b"))
        // The parent through a link: the old check compared account strings and missed it.
        try await Self.expectRefused(tree) { try await manager.sync(from: sub, to: TransferEndpoint(try Self.local(tree, "link"))) }
        // The parent as `b/..`, and the same folder with a trailing slash and a doubled one.
        try await Self.expectRefused(tree) { try await manager.sync(from: sub, to: TransferEndpoint(try Self.local(tree, "src/b/.."))) }
        try await Self.expectRefused(tree) {
            try await manager.sync(from: sub, to: TransferEndpoint(try Self.local(tree, "src//b/")))
        }
        // Into its own child, not there yet, through the link.
        try await Self.expectRefused(tree) {
            try await manager.copy(
                from: TransferEndpoint(try Self.local(tree, "src")), to: TransferEndpoint(try Self.local(tree, "link/b"), at: "/new/deeper"))
        }
        #expect(!tree.exists("src/b/new"))
        // A sibling is another tree: the copy runs.
        let sibling = try await manager.copy(from: sub, to: TransferEndpoint(try Self.local(tree, "link"), at: "/c"))
        #expect(sibling.succeeded)
        #expect(try tree.read("src/c/keep.txt") == Data("two".utf8))
    }

    @Test("locations that cannot tell: the marker probe finds the parent, the child and the same folder; apart, the job runs")
    func probeFindsOverlap() async throws {
        let tree = try Self.sample()
        let manager = TransferManager(options: .testing())
        let top = UnknownLocation(base: try Self.local(tree, "src"))
        let sub = UnknownLocation(base: try Self.local(tree, "src/b"))
        // The destination contains the source, seen from the source only by the marker it leaves.
        try await Self.expectRefused(tree) { try await manager.sync(from: TransferEndpoint(sub), to: TransferEndpoint(top)) }
        try await Self.expectRefused(tree) { try await manager.sync(from: TransferEndpoint(top), to: TransferEndpoint(sub)) }
        try await Self.expectRefused(tree) { try await manager.sync(from: TransferEndpoint(top, at: "/b"), to: TransferEndpoint(sub)) }
        try await Self.expectRefused(tree) { try await manager.copy(from: TransferEndpoint(top), to: TransferEndpoint(sub, at: "/new")) }

        // Two servers whose identities differ (host names that do not resolve) over one store.
        let one = Disguised(base: try Self.local(tree, "src"), host: "one.invalid")
        let two = Disguised(base: try Self.local(tree, "src/b"), host: "two.invalid")
        try await Self.expectRefused(tree) { try await manager.sync(from: TransferEndpoint(two), to: TransferEndpoint(one)) }

        // Apart: a probe finds nothing, the sync runs and leaves no marker.
        let other = try LocalTree()
        let report = try await manager.sync(from: TransferEndpoint(sub), to: TransferEndpoint(UnknownLocation(base: other.provider)))
        #expect(report.succeeded)
        #expect(try other.listing() == ["keep.txt"])
        #expect(try tree.listing().filter { $0.contains("strata-overlap-probe") }.isEmpty)
    }

    @Test("a probe that cannot write in a read-only source refuses the job, unless told to assume no overlap")
    func readOnlySource() async throws {
        let tree = try Self.sample()
        let other = try LocalTree()
        let source = TransferEndpoint(ReadOnly(base: UnknownLocation(base: try Self.local(tree, "src/b"))))
        let destination = TransferEndpoint(UnknownLocation(base: other.provider))
        do {
            _ = try await TransferManager(options: .testing()).sync(from: source, to: destination)
            Issue.record("not refused")
        } catch let error as ProviderError {
            #expect(error.code == .invalidArgument)
            #expect(error.message?.contains("cannot tell") == true, "\(error)")
        }
        #expect(try other.listing().isEmpty)
        var options = TransferManager.Options.testing()
        options.assumeNoOverlap = true
        #expect(try await TransferManager(options: options).sync(from: source, to: destination).succeeded)
        #expect(try other.listing() == ["keep.txt"])
    }

    @Test("a file as source is copied into a folder that holds it (nothing to refuse)")
    func fileSource() async throws {
        let tree = try Self.sample()
        let top = try Self.local(tree, "src")
        let report = try await TransferManager(options: .testing()).copy(from: TransferEndpoint(top, at: "/b/keep.txt"), to: TransferEndpoint(top))
        #expect(report.succeeded)
        #expect(try tree.read("src/keep.txt") == Data("two".utf8))
    }
}

/// A provider that does not say where its files are (the default location).
struct UnknownLocation: ForwardingProvider {
    let base: any StorageProvider
    func location(of path: ItemPath) async throws -> TreeLocation { .unknown }
}

/// A provider on a server named `host` (which does not resolve), whose paths start at its root:
/// two of them over one store are, to their locations, two servers.
struct Disguised: ForwardingProvider {
    let base: any StorageProvider
    let host: String
    func location(of path: ItemPath) async throws -> TreeLocation {
        TreeLocation(server: ServerIdentity(family: "test", scheme: "http", host: host, port: 80), path: path.segments)
    }
}

/// A provider that refuses every write.
struct ReadOnly: ForwardingProvider {
    let base: any StorageProvider
    func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        throw ProviderError(.forbidden, "read-only")
    }
    func createFolder(named name: String, in parent: ItemPath) async throws -> Item { throw ProviderError(.forbidden, "read-only") }
    func delete(_ path: ItemPath) async throws { throw ProviderError(.forbidden, "read-only") }
}

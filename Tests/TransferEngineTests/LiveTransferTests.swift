import Foundation
import HTTPProviderKit
import ProviderAPI
import ProviderTesting
import StrataTestSupport
import Testing
import TransferEngine
import WebDAVProvider

/// Transfers to the real Apache that `scripts/with-servers` (and `scripts/test`) start on loopback.
/// A missing server is a failure, never a skip.
@Suite("transfers to a real server", .liveServers)
struct LiveTransferTests {
    /// The URL and account of a server `scripts/with-servers` started (`apache`, `sabre`, …), from the environment.
    static func server(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (url: URL, credentials: Credentials) {
        let server = try LiveWebDAVServer.named(name, sourceLocation: sourceLocation)
        return (server.url, server.credentials)
    }

    /// A provider for the server's root, its requests counted, and a fresh folder on it.
    static func scratch(_ name: String) async throws -> (provider: WebDAVProvider, counting: CountingTransport, folder: ItemPath) {
        let (url, credentials) = try server(name)
        let counting = CountingTransport(AsyncHTTPClientTransport.shared)
        let root = try await WebDAVProvider.connect(ProviderConfiguration(url: url, credentials: credentials, transport: counting))
        let folder = "transfer-\(UInt64.random(in: 0...UInt64.max))"
        _ = try await root.createFolder(named: folder, in: .root)
        return (root, counting, try ItemPath(folder))
    }

    @Test("local → Apache: the tree arrives whole, check finds it the same, and a second copy sends no file and makes no folder")
    func localToApache() async throws {
        let (root, counting, scratch) = try await Self.scratch("apache")
        defer { Task { try? await root.delete(scratch) } }
        let destination = TransferEndpoint(root, at: try scratch.appending("copy"))

        let source = try LocalTree()
        try source.fillSample()
        try source.write("large.bin", Data((0..<(5 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
        var options = TransferManager.Options.testing()
        options.pageSize = 1000
        let manager = TransferManager(options: options)
        let first = try await manager.copy(from: source.endpoint, to: destination)
        #expect(first.failures.isEmpty)
        #expect(first.filesCopied == 10)
        #expect(first.foldersCreated == 7)  // the destination folder and the six of the tree
        #expect(try await root.data(at: try destination.path.appending("large.bin"), limit: 8 << 20) == (try source.read("large.bin")))
        #expect(try await root.item(at: try destination.path.appending("docs").appending("empty too")).isFolder)

        let check = try await manager.check(source.endpoint, against: destination)
        #expect(check.isIdentical, "missing \(check.missing), extra \(check.extra), differing \(check.differing)")

        let puts = counting.count(of: "PUT")
        let folders = counting.count(of: "MKCOL")
        let before = counting.total
        let propfinds = counting.count(of: "PROPFIND")
        let second = try await manager.copy(from: source.endpoint, to: destination)
        #expect(second.plan.changesNothing)
        #expect(second.filesCopied == 0)
        #expect(counting.count(of: "PUT") == puts)
        #expect(counting.count(of: "MKCOL") == folders)
        // Reading only: a stat of the destination and one listing of each of its 7 folders.
        let sent = counting.total - before
        #expect(sent == counting.count(of: "PROPFIND") - propfinds)
        #expect(sent <= 1 + 7 * 2, "the second copy sent \(sent) requests")
    }

    @Test("Apache → sabre: each file streams from one server's GET into the other's PUT; check agrees; a second sync sends nothing")
    func apacheToSabre() async throws {
        let (apache, _, from) = try await Self.scratch("apache")
        defer { Task { try? await apache.delete(from) } }
        let (sabre, counting, to) = try await Self.scratch("sabre")
        defer { Task { try? await sabre.delete(to) } }
        let local = try LocalTree()
        try local.fillSample()
        try local.write("large.bin", Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 11) }))
        var options = TransferManager.Options.testing()
        options.pageSize = 1000
        let manager = TransferManager(options: options)
        let seeded = try await manager.copy(from: local.endpoint, to: TransferEndpoint(apache, at: from))
        #expect(seeded.succeeded)

        let source = TransferEndpoint(apache, at: from)
        let destination = TransferEndpoint(sabre, at: to)
        let first = try await manager.sync(from: source, to: destination)
        #expect(first.succeeded, "\(first.failures.map(\.message))")
        #expect(first.filesCopied == 10)
        #expect(try await sabre.data(at: try to.appending("large.bin"), limit: 8 << 20) == (try local.read("large.bin")))
        #expect(try await sabre.item(at: try to.appending("empty")).isFolder)
        let check = try await manager.check(source, against: destination)
        #expect(check.isIdentical, "missing \(check.missing), extra \(check.extra), differing \(check.differing)")

        #expect(first.deleted == 0)
        let (puts, deletes, total) = (counting.count(of: "PUT"), counting.count(of: "DELETE"), counting.total)
        let again = try await manager.sync(from: source, to: destination)
        #expect(again.plan.changesNothing)
        #expect(counting.count(of: "PUT") == puts)
        #expect(counting.count(of: "DELETE") == deletes)
        #expect(counting.total - total <= 1 + 7 * 2, "the second sync sent \(counting.total - total) requests to sabre")
    }

    /// Issue 29, loss path 4: `A.txt` and `a.txt` onto a server that folds case were "copied 2
    /// files" with one file left there. The verifier finds that the server folds case, and the
    /// copy reports the clash instead of writing one over the other.
    @Test("local → a case-folding server: A.txt and a.txt are a conflict, neither is written over the other, and the copy fails")
    func caseFoldingDestination() async throws {
        let (root, _, scratch) = try await Self.scratch("rclonefold")
        defer { Task { try? await root.delete(scratch) } }
        #expect(root.profile.verified.nameCase == .insensitive, "\(root.profile.verified)")
        #expect(!root.capabilities.names.caseSensitive)
        let source = try LocalTree()
        try source.write("A.txt", "upper")
        try source.write("a.txt", "lower")
        try source.write("other.txt", "kept")
        let destination = TransferEndpoint(root, at: try scratch.appending("copy"))
        let manager = TransferManager(options: .testing())
        let report = try await manager.copy(from: source.endpoint, to: destination)

        #expect(!report.succeeded)
        let conflicts = Set(report.failures.filter { $0.code == "conflict" }.map(\.relativePath.name))
        #expect(!conflicts.isEmpty && conflicts.isSubset(of: ["A.txt", "a.txt"]), "\(report.failures)")
        #expect(report.filesCopied < 3, "both were written: one over the other")
        // What is there holds the content of the source file of its own name: nothing was
        // overwritten by its case-twin.
        let contents = ["A.txt": "upper", "a.txt": "lower", "other.txt": "kept"]
        let listed = try await root.listAll(destination.path)
        #expect(listed.filter { $0.name.lowercased() == "a.txt" }.count <= 1)
        for item in listed {
            let text = String(decoding: try await root.data(at: item.path), as: UTF8.self)
            #expect(text == contents[item.name], "\(item.name) holds \(text)")
        }
        // Every file not reported as a conflict is there under its own name.
        for name in contents.keys.sorted() where !conflicts.contains(name) {
            #expect(listed.contains { $0.name == name }, "\(name) is not reported, and not on the server")
        }
    }
}

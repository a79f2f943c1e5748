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
@Suite("transfers to a real server")
struct LiveTransferTests {
    /// Apache's URL and account from the environment.
    static func apache(sourceLocation: SourceLocation = #_sourceLocation) throws -> (url: URL, credentials: Credentials) {
        let server = try LiveWebDAVServer.named("apache", sourceLocation: sourceLocation)
        return (server.url, server.credentials)
    }

    @Test("local → Apache: the tree arrives whole, check finds it the same, and a second copy sends no file and makes no folder")
    func localToApache() async throws {
        let (url, credentials) = try Self.apache()
        let counting = CountingTransport(AsyncHTTPClientTransport.shared)
        let root = try await WebDAVProvider.connect(ProviderConfiguration(url: url, credentials: credentials, transport: counting))
        let scratch = "transfer-\(UInt64.random(in: 0...UInt64.max))"
        _ = try await root.createFolder(named: scratch, in: .root)
        defer { Task { try? await root.delete(try ItemPath(scratch)) } }
        let destination = TransferEndpoint(root, at: try ItemPath(scratch).appending("copy"))

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
}

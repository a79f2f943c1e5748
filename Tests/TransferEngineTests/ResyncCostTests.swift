import Foundation
import ProviderAPI
import ProviderTesting
import SharedCache
import Testing
import TransferEngine

/// What a second `sync` of an unchanged tree costs against the real Apache of `scripts/with-servers`,
/// with a job store: requests counted by method. A missing server is a failure, never a skip.
@Suite("re-sync of an unchanged tree")
struct ResyncCostTests {
    private static func options(_ jobs: TransferJobTests.Jobs) -> TransferManager.Options {
        var options = TransferManager.Options.testing()
        options.pageSize = 1000
        options.jobStore = jobs.store
        return options
    }

    @Test("local → Apache: a stat of the root and one PROPFIND per folder, no GET, PUT, MKCOL or DELETE")
    func localToApache() async throws {
        let (root, counting, scratch) = try await LiveTransferTests.scratch("apache")
        defer { Task { try? await root.delete(scratch) } }
        let jobs = try TransferJobTests.Jobs()
        let source = try LocalTree()
        try source.fillSample()
        let destination = TransferEndpoint(root, at: try scratch.appending("copy"))
        let manager = TransferManager(options: Self.options(jobs))
        let first = try await manager.sync(from: source.endpoint, to: destination)
        #expect(first.succeeded)
        #expect(first.filesCopied == 9)

        let before = counting.counts
        let again = try await manager.sync(from: source.endpoint, to: destination)
        #expect(again.plan.changesNothing)
        let sent = counting.counts.subtracting(before)
        // The destination root and its six folders below: 7 listings, and one stat of the root.
        let folders = 7
        #expect(sent["PROPFIND", default: 0] <= folders + 1, "\(sent)")
        #expect(sent.keys.allSatisfy { $0 == "PROPFIND" }, "\(sent)")
    }

    @Test("Apache → Apache: each side a stat of its root and one PROPFIND per folder, no GET or PUT")
    func apacheToApache() async throws {
        let (root, counting, scratch) = try await LiveTransferTests.scratch("apache")
        defer { Task { try? await root.delete(scratch) } }
        let jobs = try TransferJobTests.Jobs()
        let local = try LocalTree()
        try local.fillSample()
        let from = TransferEndpoint(root, at: try scratch.appending("from"))
        let to = TransferEndpoint(root, at: try scratch.appending("to"))
        let manager = TransferManager(options: Self.options(jobs))
        #expect(try await manager.copy(from: local.endpoint, to: from).succeeded)
        let first = try await manager.sync(from: from, to: to)
        #expect(first.succeeded)
        #expect(first.filesCopied == 9)

        let before = counting.counts
        let again = try await manager.sync(from: from, to: to)
        #expect(again.plan.changesNothing)
        let sent = counting.counts.subtracting(before)
        let folders = 7
        #expect(sent["PROPFIND", default: 0] <= 2 * (folders + 1), "\(sent)")
        #expect(sent.keys.allSatisfy { $0 == "PROPFIND" }, "\(sent)")
    }
}

extension CountingTransport {
    /// The requests sent so far by method, for every method a provider sends (their sum is
    /// checked against ``total``, so a method left out here fails the test instead of hiding).
    var counts: [String: Int] {
        let methods = ["PROPFIND", "GET", "HEAD", "PUT", "MKCOL", "DELETE", "MOVE", "COPY", "PROPPATCH", "OPTIONS", "POST", "LOCK", "UNLOCK"]
        var counts: [String: Int] = [:]
        for method in methods where count(of: method) > 0 { counts[method] = count(of: method) }
        let known = counts.values.reduce(0, +)
        if known != total { counts["other"] = total - known }
        return counts
    }
}

extension Dictionary where Key == String, Value == Int {
    /// The counts of this dictionary less those of `earlier`, without the zeros.
    func subtracting(_ earlier: [String: Int]) -> [String: Int] {
        var result: [String: Int] = [:]
        for (key, value) in self where value - earlier[key, default: 0] != 0 { result[key] = value - earlier[key, default: 0] }
        return result
    }
}

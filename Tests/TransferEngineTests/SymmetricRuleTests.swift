import Foundation
import ProviderAPI
import ProviderConformance
import Testing
import TransferEngine

/// One comparison rule whichever way round: `check A B` and `check B A` agree, and a sync back
/// the other way sends nothing, whatever each side declares.
@Suite("one comparison rule whichever way round")
struct SymmetricRuleTests {
    /// Capabilities like the adapters': a local folder, Nuxeo (MD5, times set), Nextcloud (SHA-1),
    /// plain WebDAV and Pydio (times kept, not set), every digest, no times at all.
    static let kinds: [(String, Capabilities)] = [
        ("local", Capabilities(features: [.setModifiedTime], modifiedTimePrecision: .microseconds(1))),
        ("md5, times set", Capabilities(features: [.digests, .setModifiedTime], digestAlgorithms: [.md5], modifiedTimePrecision: .milliseconds(1))),
        ("md5, times not set", Capabilities(features: [.digests], digestAlgorithms: [.md5], modifiedTimePrecision: .milliseconds(1))),
        ("sha1", Capabilities(features: [.digests, .setModifiedTime], digestAlgorithms: [.sha1], modifiedTimePrecision: .seconds(1))),
        ("plain WebDAV", Capabilities(features: [], modifiedTimePrecision: .seconds(1))),
        ("all digests", InMemoryProvider.fullCapabilities),
        ("no times", Capabilities(features: [], modifiedTimePrecision: nil)),
    ]

    @Test("choose gives the same kind, digest and tolerance for (A, B) and (B, A), its sides swapped", arguments: [false, true])
    func chooseIsSymmetric(computing: Bool) {
        for comparison in [SameFileRule.Comparison.listings, .checksum, .content] {
            for (leftName, left) in Self.kinds {
                for (rightName, right) in Self.kinds {
                    let forth = SameFileRule.choose(source: left, destination: right, computingDigests: computing, comparison: comparison)
                    let back = SameFileRule.choose(source: right, destination: left, computingDigests: computing, comparison: comparison)
                    let label = "\(leftName) ↔ \(rightName), \(comparison), computing \(computing): \(forth) / \(back)"
                    #expect(forth.kind == back.kind, "\(label)")
                    #expect(forth.algorithm == back.algorithm, "\(label)")
                    #expect(forth.tolerance == back.tolerance, "\(label)")
                    #expect(Set(forth.computedOn.map(\.other)) == back.computedOn, "\(label)")
                    #expect(forth.laterSide?.other == back.laterSide, "\(label)")
                    if comparison != .listings { #expect(forth.comparesContent, "\(label)") }
                }
            }
        }
        // A digest one side declares is computed on the side that lacks it, either way round.
        let local = Self.kinds[0].1
        let md5 = Self.kinds[2].1
        #expect(SameFileRule.choose(source: local, destination: md5, computingDigests: true).computedOn == [.source])
        #expect(SameFileRule.choose(source: md5, destination: local, computingDigests: true).computedOn == [.destination])
        #expect(SameFileRule.choose(source: md5, destination: local, computingDigests: true).description == "md5 (computed on the destination)")
    }

    /// A local tree of `count` files written an hour ago, and a server declaring `capabilities`.
    static func tree(count: Int) throws -> LocalTree {
        let tree = try LocalTree()
        let hourAgo = Date().addingTimeInterval(-3600)
        for index in 0..<count {
            try tree.write("d\(index % 3)/f\(index).txt", "file \(index)")
            try FileManager.default.setAttributes(
                [.modificationDate: hourAgo], ofItemAtPath: tree.url.appendingPathComponent("d\(index % 3)/f\(index).txt").path)
        }
        return tree
    }

    /// Copies a local tree to a server declaring `capabilities`, then checks both ways and syncs
    /// back: the same answer each way, nothing sent back.
    static func roundTrip(_ capabilities: Capabilities, count: Int = 12) async throws -> (forth: CheckReport, back: CheckReport) {
        let local = try tree(count: count)
        let server = MemoryServer(capabilities: capabilities, host: "server")
        let manager = TransferManager(options: .testing())
        let copy = try await manager.copy(from: local.endpoint, to: server.endpoint)
        #expect(copy.succeeded && copy.filesCopied == count)
        let forth = try await manager.check(local.endpoint, against: server.endpoint)
        let back = try await manager.check(server.endpoint, against: local.endpoint)
        #expect(forth.isIdentical, "check A B: \(forth.rule), differing \(forth.differing.count)")
        #expect(back.isIdentical, "check B A: \(back.rule), differing \(back.differing.count)")
        #expect(forth.matching == count && back.matching == count)
        #expect(forth.rule.kind == back.rule.kind && forth.rule.algorithm == back.rule.algorithm)
        let sync = try await manager.sync(from: server.endpoint, to: local.endpoint)
        #expect(sync.plan.changesNothing, "sync B → A would send \(sync.plan.actions(.copyFile).count) files by \(sync.plan.rule)")
        #expect(sync.filesCopied == 0 && sync.deleted == 0)
        return (forth, back)
    }

    @Test("local → a server with MD5 that cannot set times: check B A agrees with check A B (MD5 both ways), and a sync back sends nothing")
    func md5ServerBothWays() async throws {
        let capabilities = Capabilities(
            features: [.digests, .emptyFolders], digestAlgorithms: [.md5], modifiedTimePrecision: .milliseconds(1))
        let (forth, back) = try await Self.roundTrip(capabilities)
        #expect(forth.rule.algorithm == .md5 && forth.rule.computedOn == [.source])
        #expect(back.rule.algorithm == .md5 && back.rule.computedOn == [.destination])
        #expect(forth.contentNotCompared == 0 && back.contentNotCompared == 0)
    }

    @Test("local → a server that keeps times but cannot set them: check B A agrees with check A B, and a same-size change on the local side is found both ways")
    func unsettableServerBothWays() async throws {
        let capabilities = Capabilities(features: [.emptyFolders], modifiedTimePrecision: .milliseconds(1))
        let local = try Self.tree(count: 6)
        // The server stamps its writes a minute back (the local files are an hour old): a change
        // made just after the copy is then in the past, with no wait for the clock to pass it.
        let server = MemoryServer(capabilities: capabilities, host: "server", clock: { Date().addingTimeInterval(-60) })
        let manager = TransferManager(options: .testing())
        #expect(try await manager.copy(from: local.endpoint, to: server.endpoint).succeeded)
        let forth = try await manager.check(local.endpoint, against: server.endpoint)
        let back = try await manager.check(server.endpoint, against: local.endpoint)
        #expect(forth.isIdentical && back.isIdentical, "\(forth.rule) / \(back.rule): \(back.differing)")
        #expect(back.rule == SameFileRule(kind: .sizeAndNotNewer, tolerance: .milliseconds(1), laterSide: .source))
        #expect(back.contentNotCompared == 6 && back.matchedBy.sizeAndModified == 6)
        #expect(try await manager.sync(from: server.endpoint, to: local.endpoint).plan.changesNothing)

        // Changed on the local side at the same size after the copy (by more than the 1 ms tolerance): found both ways.
        let copiedAt = try #require(try await server.provider.item(at: "/d1/f1.txt").modified)
        let changedAt = copiedAt.addingTimeInterval(0.02)
        try local.write("d1/f1.txt", "FILE 1")
        try FileManager.default.setAttributes([.modificationDate: changedAt], ofItemAtPath: local.url.appendingPathComponent("d1/f1.txt").path)
        let changedForth = try await manager.check(local.endpoint, against: server.endpoint)
        let changedBack = try await manager.check(server.endpoint, against: local.endpoint)
        #expect(changedForth.differing == ["/d1/f1.txt"])
        #expect(changedBack.differing == ["/d1/f1.txt"])
    }

    @Test("between two servers declaring different digests, each computes the preferred one the other lacks, and both checks agree file for file")
    func differentDigests() async throws {
        var sha1 = InMemoryProvider.basicCapabilities
        sha1.features.insert(.digests)
        sha1.digestAlgorithms = [.sha1]
        var md5 = InMemoryProvider.basicCapabilities
        md5.features.insert(.digests)
        md5.digestAlgorithms = [.md5]
        let left = MemoryServer(capabilities: sha1, host: "left")
        let right = MemoryServer(capabilities: md5, host: "right")
        let when = Date(timeIntervalSince1970: 1_700_000_000)
        for (name, l, r) in [("same.txt", "abc", "abc"), ("changed.txt", "abc", "abd"), ("size.txt", "abc", "abcd")] {
            _ = try await left.provider.upload(data: Data(l.utf8), to: try ItemPath("/" + name), options: UploadOptions(modified: when))
            _ = try await right.provider.upload(data: Data(r.utf8), to: try ItemPath("/" + name), options: UploadOptions(modified: when))
        }
        let manager = TransferManager(options: .testing())
        let forth = try await manager.check(left.endpoint, against: right.endpoint)
        let back = try await manager.check(right.endpoint, against: left.endpoint)
        #expect(forth.rule.algorithm == .sha1 && forth.rule.computedOn == [.destination])
        #expect(back.rule.algorithm == .sha1 && back.rule.computedOn == [.source])
        #expect(forth.differing == ["/changed.txt", "/size.txt"])
        #expect(back.differing == forth.differing)
        #expect(forth.matching == 1 && back.matching == 1)
    }
}

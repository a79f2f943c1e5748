import Foundation
import ProviderAPI
import Testing
import TransferEngine

/// A round trip through the loopback Pydio server, which refuses dot-files, a leading space and
/// `? " | \`, and stores NFC: the names come back as they were, and nothing is deleted.
@Suite("round trip through Pydio")
struct PydioRoundTripTests {
    @Test("local → loopback Pydio → sync back and check both ways: the local folder unchanged, nothing deleted or created")
    func localToPydioAndBack() async throws {
        let pydio = try await PairServer.pydio()
        try await LivePairTests.using([pydio]) {
            let local = try LocalTree()
            try NameMappingRoundTripTests.awkward(local)
            let before = try NameMappingRoundTripTests.bytes(local)
            let contents = try NameMappingRoundTripTests.contents(local)
            let remote = try pydio.endpoint("tree")
            let manager = TransferManager(options: .testing())
            let copied = try await manager.copy(from: local.endpoint, to: remote)
            #expect(copied.succeeded, "\(copied.failures.map { "\($0.relativePath): \($0.message)" })")
            #expect(copied.plan.mappedNames.contains { $0.reason == .normalized }, "the NFD name is reported")

            // Every name matched the other way. (Files compared by modified time the other way differ by
            // Pydio's upload time, which it cannot set: a comparison rule, not a name, issue 29 path 6.)
            let backward = try await manager.check(remote, against: local.endpoint)
            #expect(backward.missing.isEmpty && backward.extra.isEmpty, "missing \(backward.missing), extra \(backward.extra)")
            #expect(backward.matching + backward.differing.count == copied.filesCopied)
            let forward = try await manager.check(local.endpoint, against: remote)
            #expect(forward.isIdentical, "missing \(forward.missing), extra \(forward.extra), differing \(forward.differing)")

            let back = try await manager.sync(from: remote, to: local.endpoint)
            #expect(back.succeeded, "\(back.failures.map { "\($0.relativePath): \($0.message)" })")
            #expect(back.deleted == 0 && back.foldersCreated == 0, "\(back.plan.actions.filter { $0.kind != .skip }.map(\.relativePath))")
            let after = try NameMappingRoundTripTests.bytes(local)
            #expect(after == before, "\(after.map { String(decoding: $0, as: UTF8.self).debugDescription })")
            #expect(try NameMappingRoundTripTests.contents(local) == contents)
        }
    }
}

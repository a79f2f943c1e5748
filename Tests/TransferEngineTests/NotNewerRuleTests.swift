import Foundation
import ProviderAPI
import ProviderConformance
import Testing
import TransferEngine

/// A destination that keeps modified times but cannot set them (plain WebDAV, Pydio): its time is
/// when the copy was made, so a source file changed later differs even at the same size.
@Suite("the rule for a destination that cannot set modified times")
struct NotNewerRuleTests {
    static func file(size: Int64?, modified: Date?) -> Item {
        Item(path: "/a.txt", kind: .file, size: size, modified: modified)
    }

    @Test("same size and a source not newer than the copy are the same; a source changed after the copy, or another size, differs")
    func same() {
        let rule = SameFileRule(kind: .sizeAndNotNewer, tolerance: .seconds(1))
        let copied = Date().addingTimeInterval(-60)
        #expect(rule.same(Self.file(size: 3, modified: copied.addingTimeInterval(-3600)), Self.file(size: 3, modified: copied)))
        // Within the coarser precision: a source written in the second of the copy.
        #expect(rule.same(Self.file(size: 3, modified: copied.addingTimeInterval(0.9)), Self.file(size: 3, modified: copied)))
        #expect(!rule.same(Self.file(size: 3, modified: copied.addingTimeInterval(5)), Self.file(size: 3, modified: copied)))
        #expect(!rule.same(Self.file(size: 4, modified: copied.addingTimeInterval(-5)), Self.file(size: 3, modified: copied)))
        // A time in the future tells nothing (a wrong clock): size alone, so the file is not sent again on every run.
        #expect(rule.same(Self.file(size: 3, modified: Date().addingTimeInterval(3600)), Self.file(size: 3, modified: copied)))
        // A side without a time: size alone.
        #expect(rule.same(Self.file(size: 3, modified: nil), Self.file(size: 3, modified: copied)))
        #expect(rule.description == "size, and the destination not older than the source (within 1 s)")
        // The same rule the other way round: the side that cannot set times is now the source.
        let reversed = SameFileRule(kind: .sizeAndNotNewer, tolerance: .seconds(1), laterSide: .source)
        #expect(reversed.same(Self.file(size: 3, modified: copied), Self.file(size: 3, modified: copied.addingTimeInterval(-3600))))
        #expect(!reversed.same(Self.file(size: 3, modified: copied), Self.file(size: 3, modified: copied.addingTimeInterval(5))))
    }

    @Test("a same-size change made on the source after the copy is found by check and sent again by copy")
    func sameSizeChange() async throws {
        let source = MemoryServer(host: "source")
        // Times kept to the millisecond but not settable: the rule's tolerance is 1 ms.
        var capabilities = InMemoryProvider.basicCapabilities
        capabilities.modifiedTimePrecision = .milliseconds(1)
        let destination = MemoryServer(capabilities: capabilities, host: "destination")
        let old = Date().addingTimeInterval(-3600)
        _ = try await source.provider.upload(data: Data("one".utf8), to: "/a.txt", options: UploadOptions(modified: old))
        _ = try await source.provider.createFolder(named: "sub", in: .root)
        _ = try await source.provider.upload(data: Data("two".utf8), to: "/sub/b.txt", options: UploadOptions(modified: old))
        // The source declares digests the destination lacks: not computed here, so the times decide.
        var options = TransferManager.Options.testing()
        options.computeSourceDigests = false
        let manager = TransferManager(options: options)
        let first = try await manager.copy(from: source.endpoint, to: destination.endpoint)
        #expect(first.succeeded)
        #expect(first.plan.rule == SameFileRule(kind: .sizeAndNotNewer, tolerance: .milliseconds(1)))
        #expect(try await manager.check(source.endpoint, against: destination.endpoint).isIdentical)
        #expect(try await manager.copy(from: source.endpoint, to: destination.endpoint).plan.changesNothing)

        let copiedAt = try await destination.provider.item(at: "/sub/b.txt").modified ?? Date()
        try await Task.sleep(for: .milliseconds(50))
        _ = try await source.provider.upload(
            data: Data("TWO".utf8), to: "/sub/b.txt", options: UploadOptions(modified: copiedAt.addingTimeInterval(0.02)))
        let check = try await manager.check(source.endpoint, against: destination.endpoint)
        #expect(check.differing == ["/sub/b.txt"])
        #expect(check.matching == 1)
        let again = try await manager.copy(from: source.endpoint, to: destination.endpoint)
        #expect(again.filesCopied == 1)
        #expect(try await destination.provider.data(at: "/sub/b.txt") == Data("TWO".utf8))
        #expect(try await manager.check(source.endpoint, against: destination.endpoint).isIdentical)
    }
}

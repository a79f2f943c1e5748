import Foundation
import LocalProvider
import ProviderAPI
import Testing
import TransferEngine

/// The destination's root folder of a copy, made at once when the planner found it missing, with
/// its parents made only when the provider says one is missing (not looked at first).
@Suite("A copy's missing destination root")
struct DestinationRootTests {
    @Test("a destination whose parents are missing: each is made, and the files arrive")
    func missingParents() async throws {
        let source = try LocalTree()
        try source.write("one.txt", "one")
        try source.write("sub/two.txt", "two")
        let destination = try LocalTree()
        let report = try await TransferManager().run(
            .copy, from: source.endpoint, to: TransferEndpoint(destination.provider, at: "/a/b/c"))
        #expect(report.succeeded, "\(report.failures)")
        #expect(try destination.listing() == ["a/", "a/b/", "a/b/c/", "a/b/c/one.txt", "a/b/c/sub/", "a/b/c/sub/two.txt"])
        #expect(try destination.read("a/b/c/sub/two.txt") == Data("two".utf8))
    }

    @Test("a file where a parent of the destination should be: the copy fails, the file is untouched, nothing is made")
    func fileInTheWay() async throws {
        let source = try LocalTree()
        try source.write("one.txt", "one")
        let destination = try LocalTree()
        try destination.write("a", "a file, not a folder")
        var failed = false
        do {
            let report = try await TransferManager().run(
                .copy, from: source.endpoint, to: TransferEndpoint(destination.provider, at: "/a/b/c"))
            failed = !report.succeeded
        } catch {
            failed = true
        }
        #expect(failed)
        #expect(try destination.listing() == ["a"])
        #expect(try destination.read("a") == Data("a file, not a folder".utf8))
    }
}

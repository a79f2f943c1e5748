import Foundation
import LocalProvider
import ProviderAPI
import Testing
import TransferEngine

@Suite("Links and special files in a local source")
struct SpecialEntriesTests {
    /// A source holding a file, a link to a file outside it, a dangling link and a FIFO.
    private func sourceWithSpecials() throws -> LocalTree {
        let source = try LocalTree()
        try source.write("a/keep.txt", "keep")
        try FileManager.default.createSymbolicLink(atPath: source.url.appendingPathComponent("a/link").path, withDestinationPath: "/etc/hostname")
        try FileManager.default.createSymbolicLink(atPath: source.url.appendingPathComponent("a/dangling").path, withDestinationPath: "nowhere")
        #expect(mkfifo(source.url.appendingPathComponent("a/pipe").path, 0o644) == 0)
        return source
    }

    @Test("the local listing gives links and FIFOs as skipped entries, with a link's target, never as items")
    func listed() async throws {
        let source = try sourceWithSpecials()
        let listing = try await source.provider.listing("/a")
        #expect(listing.items.map(\.name) == ["keep.txt"])
        #expect(listing.skipped.map(\.name) == ["dangling", "link", "pipe"])
        #expect(listing.skipped.map(\.kind) == [.link, .link, .special])
        #expect(listing.skipped.first { $0.name == "link" }?.target == "/etc/hostname")
        // A listing by cursor gives them once, with its first page.
        var request = PageRequest(limit: 1)
        var seen: [String] = []
        while true {
            let page = try await source.provider.list("/a", page: request)
            seen += page.skipped.map(\.name)
            guard let next = page.next else { break }
            request.cursor = next
        }
        #expect(seen == ["dangling", "link", "pipe"])
    }

    @Test("sync neither follows nor transfers them, reports and counts them, and keeps what the destination holds under their names")
    func syncKeepsTheirNames() async throws {
        let source = try sourceWithSpecials()
        let destination = try LocalTree()
        try destination.write("a/link", "the destination's own file")
        try destination.write("a/pipe", "another")
        try destination.write("a/gone.txt", "extra")
        var options = TransferManager.Options()
        options.maxDeletePercent = nil
        let report = try await TransferManager(options: options).sync(from: source.endpoint, to: destination.endpoint)
        #expect(report.succeeded)
        #expect(report.plan.skipped.map(\.text) == [
            "link a/dangling -> nowhere", "link a/link -> /etc/hostname", "special file a/pipe (a FIFO, socket or device)",
        ])
        #expect(String(decoding: try destination.read("a/link"), as: UTF8.self) == "the destination's own file")
        #expect(String(decoding: try destination.read("a/pipe"), as: UTF8.self) == "another")
        #expect(!destination.exists("a/gone.txt"), "a real extra still goes")
        #expect(!destination.exists("a/dangling"))
        #expect(String(decoding: try destination.read("a/keep.txt"), as: UTF8.self) == "keep")
        let check = try await TransferManager().check(source.endpoint, against: destination.endpoint)
        #expect(check.skipped.count == 3)
        #expect(check.extra.isEmpty, "what the destination holds under a skipped name is not called extra")
    }
}

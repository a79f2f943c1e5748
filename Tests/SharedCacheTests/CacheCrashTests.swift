import Foundation
import ProviderAPI
import Testing
@testable import SharedCache

@Suite("CacheStore crash safety", .serialized)
struct CacheCrashTests {
    @Test("a writer killed with SIGKILL mid-write, many times: the cache reopens consistent, committed writes kept")
    func killedWriters() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let cache = dir.url.appendingPathComponent("cache")
        let owner = ProviderAccount(kind: "torture", server: "https://torture.example", user: "mixed")
        var rounds = 0
        for round in 0..<20 {
            let log = dir.url.appendingPathComponent("mixed-\(round).log")
            let child = try TortureProcess(["mixed", cache.path, "\(round)"], log: log)
            try await child.waitForLines(1 + round % 4)
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...60)))
            let ended = child.kill()
            #expect(ended.signaled && ended.status == SIGKILL, "round \(round): the child ended by itself (\(ended))")

            let store = try CacheStore(directory: cache, blobLimits: BlobLimits(maxBytes: 4 << 20, maxCount: 40))
            let problems = try await store.verify()
            #expect(problems == [], "round \(round)")
            // Every change the child logged was committed and must be there.
            var expected: [String: Int] = [:]
            var blobs: [String] = []
            let lines = child.lines()
            for line in lines {
                let parts = line.split(separator: " ").map(String.init)
                switch parts.first {
                case "listing": expected[parts[1]] = 50
                case "moved":
                    expected[parts[1]] = nil
                    expected[parts[2]] = 50
                case "removed": expected[parts[1]] = nil
                case "blob": blobs.append(parts[1])
                default: break
                }
            }
            // The change in flight when the child died may or may not have committed.
            if let last = lines.last, last.hasPrefix("begin ") {
                for path in last.split(separator: " ").dropFirst(2) { expected[String(path)] = nil }
            }
            for (path, count) in expected {
                let listing = try await store.listing(of: ItemPath(path), account: owner)
                #expect(listing?.items.count == count, "round \(round): \(path)")
            }
            if let last = blobs.last { #expect(await store.blobs.has(last), "round \(round): the last committed blob") }
            let temp = cache.appendingPathComponent("blobs/tmp")
            let strays = try FileManager.default.contentsOfDirectory(atPath: temp.path).filter { !$0.hasSuffix(".lock") }
            #expect(strays.count == 1, "round \(round): only the open store's own temporary folder: \(strays)")
            rounds += 1
        }
        #expect(rounds == 20)
    }
}

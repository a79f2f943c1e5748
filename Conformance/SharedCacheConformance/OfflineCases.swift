import Foundation
import ProviderAPI
import ProviderConformance
import SharedCache

/// The shared offline cache in front of the provider: what was read online still answers offline.
enum OfflineCases {
    static var all: [ConformanceCase] { [cachedReads] }

    static let cachedReads = ConformanceCase(
        "offline.cachedReads",
        summary: "After going online once, with the network cut, listing, stat, search and download of cached content still answer"
    ) { context in
        let bytes = Array("cached content for offline reading\n".utf8)
        let file = try await context.upload(bytes, as: "offline-note.txt")
        try await context.makeFolder("offline-sub")
        let cacheDirectory = context.localURL("offline-cache")
        try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        let store = try CacheStore(directory: cacheDirectory)
        let (faulty, faults) = try await context.makeFaultInjectingProvider()
        let cached = CachedProvider(wrapping: faulty, store: store, policy: .networkFirst)

        // Online once.
        let online = try await cached.listAll(context.folder).map(\.name).sorted()
        _ = try await cached.item(at: file.path)
        let first = MemorySink()
        _ = try await cached.download(file.path, to: first, options: DownloadOptions())
        let onlineBytes = await first.bytes
        try context.expect(onlineBytes == bytes, "the online download through the cache holds \(ByteSummary.describe(onlineBytes))")

        // The network is cut.
        faults.inject(count: Int.max) { _ in .connectionFailure }
        try TransportChecks.expectUsed(faults, context: context)
        let before = faults.appliedFaults
        let listed = try await cached.listAll(context.folder)
        // The cache tries the network first: the listing must have met the cut, not skipped it.
        try TransportChecks.expectApplied(faults, since: before, "the cut network under the offline listing")
        try context.expect(listed.map(\.name).sorted() == online, "offline, the listing holds \(listed.map(\.name).sorted()), online it held \(online)")
        try context.expect(listed.allSatisfy { $0.properties[CacheMarks.stale] == "true" }, "offline answers are not marked stale")
        let stat = try await cached.item(at: file.path)
        try context.expect(stat.size == Int64(bytes.count), "offline, item(at:) says size \(String(describing: stat.size))")
        let found = try await cached.search(.nameContains("offline-note"), page: PageRequest())
        try context.expect(found.items.map(\.path) == [file.path], "offline, search found \(found.items.map(\.path))")
        let second = MemorySink()
        _ = try await cached.download(file.path, to: second, options: DownloadOptions())
        let offlineBytes = await second.bytes
        try context.expect(offlineBytes == bytes, "offline, the download holds \(ByteSummary.describe(offlineBytes))")
        try await context.expectError(.network, "item(at:) of something never seen, offline") {
            _ = try await cached.item(at: try context.path("never-seen.txt"))
        }
        context.note("\(faults.requests.count) requests through the cut transport")
    }
}

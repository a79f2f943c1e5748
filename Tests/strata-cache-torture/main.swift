// strata-cache-torture: the child process of SharedCache's two-process and crash tests.
//
//   strata-cache-torture write-items DIR ACCOUNT COUNT LOG   save COUNT items (listings of 20), log each committed batch
//   strata-cache-torture write-blobs DIR COUNT SIZE LOG      save COUNT blobs of SIZE bytes, log each committed key
//   strata-cache-torture mixed DIR SEED LOG                  listings, moves, removes and blob saves until killed
//   strata-cache-torture bench DIR                           time 100,000 item inserts, FTS searches and LRU eviction
//   strata-cache-torture bench-lru DIR COUNT                 LRU cost with COUNT blobs (saves evicting one, half evicted at once)
//   strata-cache-torture journal DIR URL USER PASS ROUND LOG  one round of offline writes through the sync journal, replayed
//   strata-cache-torture journal-replay DIR URL USER PASS LOG replay what killed rounds left
//
// Every line in LOG is written (with write(2)) after the change it names was committed,
// so a parent that kills the process knows what must have survived; `mixed` also logs
// `begin ...` before each metadata change, so the parent knows which one was in flight.
import Foundation
import ProviderAPI
import SharedCache

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct TortureLog {
    let descriptor: Int32

    init(path: String) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else { fail("cannot open log \(path)") }
    }

    func line(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("strata-cache-torture: \(message)\n".utf8))
    exit(1)
}

func account(_ name: String) -> ProviderAccount {
    ProviderAccount(kind: "torture", server: "https://torture.example", user: name)
}

func item(_ path: ItemPath, kind: ItemKind = .file, size: Int64 = 1) -> Item {
    Item(path: path, kind: kind, size: size, etag: "\"\(size)\"", mimeType: "text/plain", properties: ["writer": "\(getpid())"])
}

/// Deterministic pseudo-random bytes.
func bytes(_ count: Int, seed: UInt64) -> Data {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var bytes = [UInt8](repeating: 0, count: count)
    for index in 0..<count {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        bytes[index] = UInt8(truncatingIfNeeded: state)
    }
    return Data(bytes)
}

func writeItems(directory: URL, accountName: String, count: Int, log: TortureLog) async throws {
    let store = try CacheStore(directory: directory)
    let owner = account(accountName)
    let folder = try ItemPath("/p-\(accountName)")
    var index = 0
    while index < count {
        let batch = try (index..<min(index + 20, count)).map { i in item(try folder.appending("i\(i)"), size: Int64(i)) }
        try await store.saveListing(batch, of: folder, account: owner, complete: false)
        index += batch.count
        log.line("items \(index)")
    }
}

func writeBlobs(directory: URL, count: Int, size: Int, log: TortureLog) async throws {
    let store = try CacheStore(directory: directory, blobLimits: BlobLimits(maxBytes: nil, maxCount: nil))
    let scratch = directory.deletingLastPathComponent().appendingPathComponent("torture-src-\(getpid())")
    defer { try? FileManager.default.removeItem(at: scratch) }
    for index in 0..<count {
        try bytes(size, seed: UInt64(getpid()) << 20 | UInt64(index)).write(to: scratch)
        let key = try await store.blobs.save(file: scratch)
        log.line("blob \(key)")
    }
}

func mixed(directory: URL, seed: UInt64, log: TortureLog) async throws {
    let store = try CacheStore(directory: directory, blobLimits: BlobLimits(maxBytes: 4 << 20, maxCount: 40))
    let owner = account("mixed")
    let scratch = directory.deletingLastPathComponent().appendingPathComponent("torture-src-\(getpid())")
    defer { try? FileManager.default.removeItem(at: scratch) }
    var round: UInt64 = 0
    while true {
        round += 1
        let folder = try ItemPath("/m/\(seed)-\(round)")
        let children = try (0..<50).map { i in item(try folder.appending("c\(i)"), size: Int64(i)) }
        log.line("begin listing \(folder)")
        try await store.saveListing(children, of: folder, account: owner, complete: true)
        log.line("listing \(folder) 50")
        if round % 3 == 0 {
            let target = try ItemPath("/moved/\(seed)-\(round)")
            log.line("begin moved \(folder) \(target)")
            try await store.moveItem(from: folder, to: target, account: owner)
            log.line("moved \(folder) \(target)")
        }
        if round % 5 == 0 {
            log.line("begin removed \(folder)")
            try await store.removeItem(at: folder, account: owner)
            log.line("removed \(folder)")
        }
        // A blob of 64 KiB to 1 MiB, through a file or through the download sink.
        let size = 65536 << Int(round % 5)
        let data = bytes(size, seed: seed << 32 | round)
        if round % 2 == 0 {
            try data.write(to: scratch)
            log.line("blob \(try await store.blobs.save(file: scratch))")
        } else {
            let sink = store.blobs.sink()
            try await sink.begin(offset: 0, expectedLength: Int64(size), validator: nil)
            var offset = 0
            while offset < size {
                let end = min(offset + 32768, size)
                try await sink.write(.init(bytes: data[offset..<end]))
                offset = end
            }
            try await sink.finish()
            log.line("blob \(sink.key ?? "?")")
        }
    }
}

func bench(directory: URL) async throws {
    let store = try CacheStore(directory: directory, blobLimits: BlobLimits(maxBytes: nil, maxCount: 3000))
    let owner = account("bench")
    let items = try (0..<100_000).map { i in
        Item(path: try ItemPath("/bulk/f\(i / 1000)/document-\(i).txt"), kind: .file, size: Int64(i), mimeType: "text/plain")
    }
    var start = ContinuousClock.now
    try await store.saveItems(items, account: owner)
    print("insert 100000 items: \(ContinuousClock.now - start)")
    start = ContinuousClock.now
    let hits = try await store.search(.nameContains("ment-4242"), account: owner)
    print("FTS search (\(hits.count) hits): \(ContinuousClock.now - start)")
    start = ContinuousClock.now
    let combined = try await store.search(.and([.nameContains("document-99"), .size(min: 99_000, max: nil)]), account: owner)
    print("FTS + size search (\(combined.count) hits): \(ContinuousClock.now - start)")
    start = ContinuousClock.now
    let listing = try await store.cachedChildren(of: "/bulk/f42", account: owner)
    print("children of a folder (\(listing.count)): \(ContinuousClock.now - start)")
    let wide = try (0..<10_000).map { i in Item(path: try ItemPath("/wide/f\(i).txt"), kind: .file, size: Int64(i)) }
    start = ContinuousClock.now
    try await store.saveListing(wide, of: "/wide", account: owner, complete: true)
    print("saving a new 10000-child listing: \(ContinuousClock.now - start)")
    start = ContinuousClock.now
    let cachedWide = try await store.listing(of: "/wide", account: owner)
    print("listing of a 10000-child folder from the cache (\(cachedWide?.items.count ?? 0)): \(ContinuousClock.now - start)")
    start = ContinuousClock.now
    let unchanged = try await store.saveListing(wide, of: "/wide", account: owner, complete: true)
    print("saving the same 10000-child listing again (\(unchanged) rewritten): \(ContinuousClock.now - start)")
    var touched = wide
    for index in stride(from: 0, to: touched.count, by: 100) { touched[index].size = -1 }
    start = ContinuousClock.now
    let changed = try await store.saveListing(touched, of: "/wide", account: owner, complete: true)
    print("saving it with 1% changed (\(changed) rewritten): \(ContinuousClock.now - start)")
    let scratch = directory.appendingPathComponent("bench-src")
    start = ContinuousClock.now
    for index in 0..<3000 {
        try bytes(1024, seed: UInt64(index)).write(to: scratch)
        try await store.blobs.save(file: scratch)
    }
    print("3000 blob saves (1 KiB): \(ContinuousClock.now - start)")
    start = ContinuousClock.now
    for index in 3000..<3500 {
        try bytes(1024, seed: UInt64(index)).write(to: scratch)
        try await store.blobs.save(file: scratch)
    }
    print("blob save evicting one at 3000 blobs: \((ContinuousClock.now - start) / 500) each")
    start = ContinuousClock.now
    try await store.blobs.setLimits(BlobLimits(maxBytes: nil, maxCount: 1000))
    print("evict 2000 of 3000 blobs at once: \(ContinuousClock.now - start)")
    start = ContinuousClock.now
    _ = try CacheStore(directory: directory, blobLimits: BlobLimits(maxBytes: nil, maxCount: 1000))
    print("open with reconcile (1000 blobs, 100000 items): \(ContinuousClock.now - start)")
}

/// LRU cost at scale: `count` blobs saved, then saves that each evict one, then half evicted at once.
func benchLRU(directory: URL, count: Int) async throws {
    let store = try CacheStore(directory: directory, blobLimits: BlobLimits(maxBytes: nil, maxCount: count))
    let scratch = directory.appendingPathComponent("bench-src")
    var start = ContinuousClock.now
    for index in 0..<count {
        try bytes(64, seed: UInt64(index)).write(to: scratch)
        try await store.blobs.save(file: scratch)
    }
    print("\(count) blob saves (64 B): \(ContinuousClock.now - start)")
    start = ContinuousClock.now
    for index in count..<(count + 200) {
        try bytes(64, seed: UInt64(index)).write(to: scratch)
        try await store.blobs.save(file: scratch)
    }
    print("blob save evicting one at \(count) blobs: \((ContinuousClock.now - start) / 200) each")
    start = ContinuousClock.now
    try await store.blobs.setLimits(BlobLimits(maxBytes: nil, maxCount: count / 2))
    print("evict \(count / 2) of \(count) blobs at once: \(ContinuousClock.now - start)")
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: write-items DIR ACCOUNT COUNT LOG | write-blobs DIR COUNT SIZE LOG | mixed DIR SEED LOG") }
do {
    switch arguments[1] {
    case "write-items" where arguments.count == 6:
        guard let count = Int(arguments[4]) else { fail("bad COUNT") }
        try await writeItems(directory: URL(fileURLWithPath: arguments[2]), accountName: arguments[3], count: count, log: TortureLog(path: arguments[5]))
    case "write-blobs" where arguments.count == 6:
        guard let count = Int(arguments[3]), let size = Int(arguments[4]) else { fail("bad COUNT or SIZE") }
        try await writeBlobs(directory: URL(fileURLWithPath: arguments[2]), count: count, size: size, log: TortureLog(path: arguments[5]))
    case "mixed" where arguments.count == 5:
        guard let seed = UInt64(arguments[3]) else { fail("bad SEED") }
        try await mixed(directory: URL(fileURLWithPath: arguments[2]), seed: seed, log: TortureLog(path: arguments[4]))
    case "bench-lru" where arguments.count == 4:
        guard let count = Int(arguments[3]) else { fail("bad COUNT") }
        try await benchLRU(directory: URL(fileURLWithPath: arguments[2]), count: count)
    case "journal" where arguments.count == 8:
        guard let url = URL(string: arguments[3]), let round = Int(arguments[6]) else { fail("bad URL or ROUND") }
        try await journalRound(
            directory: URL(fileURLWithPath: arguments[2]), url: url, user: arguments[4], password: arguments[5], round: round,
            log: TortureLog(path: arguments[7]))
    case "journal-replay" where arguments.count == 7:
        guard let url = URL(string: arguments[3]) else { fail("bad URL") }
        try await journalFinal(
            directory: URL(fileURLWithPath: arguments[2]), url: url, user: arguments[4], password: arguments[5], log: TortureLog(path: arguments[6]))
    case "bench" where arguments.count == 3:
        try await bench(directory: URL(fileURLWithPath: arguments[2]))
    default:
        fail("unknown command or wrong arguments: \(arguments.dropFirst().joined(separator: " "))")
    }
} catch {
    fail("\(error)")
}

import Foundation
import NIOConcurrencyHelpers
import LocalProvider
import ProviderAPI
import ProviderConformance
import ProviderTesting
import Testing
import TransferEngine

/// A fresh local folder, removed when the value goes, with a provider rooted there.
final class LocalTree: Sendable {
    let url: URL
    let provider: LocalProvider

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-transfer-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        provider = try LocalProvider(root: url)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var endpoint: TransferEndpoint { TransferEndpoint(provider) }

    /// Writes `text` to the file at `relative`, making its folders.
    func write(_ relative: String, _ text: String) throws {
        try write(relative, Data(text.utf8))
    }

    func write(_ relative: String, _ data: Data) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    func folder(_ relative: String) throws {
        try FileManager.default.createDirectory(at: url.appendingPathComponent(relative), withIntermediateDirectories: true)
    }

    func read(_ relative: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(relative)) }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: url.appendingPathComponent(relative).path) }

    /// Every path below the root, folders ending in `/`, sorted.
    func listing() throws -> [String] {
        var paths: [String] = []
        let base = url.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        while let relative = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isFolder)
            paths.append(relative + (isFolder.boolValue ? "/" : ""))
        }
        return paths.sorted()
    }

    /// A tree with nested and empty folders, a zero-byte file and awkward names.
    func fillSample() throws {
        try write("top.txt", "top")
        try write("docs/readme.md", "# read me\n")
        try write("docs/deep/er/deepest.bin", Data((0..<10_000).map { UInt8($0 % 251) }))
        try write("with space .txt", "spaces")
        try write("naïve café/résumé.txt", "unicode")
        try write("what?.txt", "a question")
        try write("quote\"d|pipe.txt", "quoted")
        try write("zero.txt", Data())
        try write("#hash%percent.txt", "hash")
        try folder("empty")
        try folder("docs/empty too")
    }
}

/// An in-memory server and the reference provider over it, its requests counted.
struct MemoryServer {
    let server: InMemoryServer
    let counting: CountingTransport
    let faults: FaultInjectingTransport
    let provider: any StorageProvider

    /// A server that refuses `forbidden` characters in names, with every feature (all digests).
    ///
    /// Every in-memory provider has the same account; `host` gives this one another, so that two
    /// servers are not taken for one (a transfer refuses to copy a tree into itself).
    init(
        forbidden: Set<Character> = [], capabilities: Capabilities = InMemoryProvider.fullCapabilities, host: String? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(names: NameRules(forbiddenCharacters: forbidden), capabilities: capabilities, host: host, clock: clock)
    }

    /// A server that applies `names` (refuses what they refuse, stores names in their normalisation);
    /// what it writes is stamped with `clock`'s time.
    init(
        names: NameRules, capabilities: Capabilities = InMemoryProvider.fullCapabilities, host: String? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        server = InMemoryServer(names: names, clock: clock)
        counting = CountingTransport(server)
        faults = FaultInjectingTransport(counting)
        var declared = capabilities
        declared.names = names
        let memory = InMemoryProvider(transport: faults, capabilities: declared, retry: .none)
        provider = host.map { OtherAccount(base: memory, account: ProviderAccount(kind: "memory", server: "http://\($0)")) } ?? memory
    }

    var endpoint: TransferEndpoint { TransferEndpoint(provider) }

    /// Copies a file of `size` bytes from a server whose first download of it is cut after
    /// `cutAfter` bytes into a local folder, and expects the copy to continue within that download
    /// (one start of the file) and to arrive exact.
    static func expectCutDownloadContinues(size: Int, cutAfter: Int64, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let memory = MemoryServer()
        let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        _ = try await memory.provider.upload(data: bytes, to: "/cut.bin")
        memory.faults.inject(.dropBody(after: cutAfter), method: "GET", count: 1)
        let destination = try LocalTree()
        let attempts = NIOLockedValueBox(0)
        let manager = TransferManager(options: .testing()) { event in
            if case .started = event { attempts.withLockedValue { $0 += 1 } }
        }
        let report = try await manager.copy(from: memory.endpoint, to: destination.endpoint)
        #expect(report.succeeded, sourceLocation: sourceLocation)
        #expect(memory.faults.appliedFaults == 1, sourceLocation: sourceLocation)
        #expect(attempts.withLockedValue { $0 } == 1, "continued within the download, not started again", sourceLocation: sourceLocation)
        #expect(try destination.read("cut.bin") == bytes, sourceLocation: sourceLocation)
    }
}

/// The options of the tests: quick retries.
extension TransferManager.Options {
    static func testing(
        transfers: Int = 4, dryRun: Bool = false, maxDelete: Int? = nil, maxDeletePercent: Double? = 50, backupDirectory: ItemPath? = nil
    ) -> TransferManager.Options {
        TransferManager.Options(
            transfers: transfers, fileRetry: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(20)),
            dryRun: dryRun, maxDelete: maxDelete, pageSize: 3, pipeCapacity: 64 << 10, maxDeletePercent: maxDeletePercent,
            backupDirectory: backupDirectory)
    }
}

/// A provider passed through under another account, on a server of its own (a kind of tree named
/// after the account's server), so that two in-memory servers are not taken for one tree.
struct OtherAccount: ForwardingProvider {
    let base: any StorageProvider
    let account: ProviderAccount

    func location(of path: ItemPath) async throws -> TreeLocation {
        var location = try await base.location(of: path)
        location.server = ServerIdentity(family: "memory at \(account.server)")
        return location
    }
}

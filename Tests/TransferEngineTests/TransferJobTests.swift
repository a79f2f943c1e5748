import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderConformance
import SharedCache
import Testing
import TransferEngine

/// Jobs kept in the shared cache: an interrupted copy or sync taken up without sending its finished
/// files again, and source digests computed once.
@Suite("resumable transfer jobs")
struct TransferJobTests {
    /// A job store in a fresh cache folder, removed with the value.
    final class Jobs: Sendable {
        let folder: URL
        let store: SQLiteTransferJobStore

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-jobs-\(UUID().uuidString)", isDirectory: true)
            store = SQLiteTransferJobStore(cache: try CacheStore(directory: folder))
        }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    /// A destination that declares it keeps modified times but drops them, so that every file it
    /// holds looks changed to a size-and-time rule; uploads of names in `refused` fail.
    struct ForgetfulDestination: ForwardingProvider {
        let base: any StorageProvider
        let refused = NIOLockedValueBox<Set<String>>([])
        let account = ProviderAccount(kind: "memory", server: "http://forgetful")
        var capabilities: Capabilities {
            Capabilities(features: [.emptyFolders, .setModifiedTime, .etags], modifiedTimePrecision: .milliseconds(1))
        }

        func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
            if refused.withLockedValue({ $0.contains(name) }) { throw ProviderError(.forbidden, "\(name) is refused") }
            var options = options
            options.modified = nil
            return try await base.upload(source, to: folder, name: name, options: options)
        }
    }

    /// A source whose downloads are counted, per path.
    struct CountingReads: ForwardingProvider {
        let base: any StorageProvider
        let reads = NIOLockedValueBox<[String: Int]>([:])
        var total: Int { reads.withLockedValue { $0.values.reduce(0, +) } }

        func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
            reads.withLockedValue { $0[path.description, default: 0] += 1 }
            return try await base.download(path, to: sink, options: options)
        }
    }

    private static func options(_ jobs: Jobs?, fresh: Bool = false) -> TransferManager.Options {
        var options = TransferManager.Options.testing()
        options.jobStore = jobs?.store
        options.startFresh = fresh
        return options
    }

    /// Ten files in two folders; `refused` ones fail on the forgetful destination.
    private static func sample() throws -> LocalTree {
        let source = try LocalTree()
        for index in 0..<10 { try source.write("\(index < 5 ? "a" : "b")/f\(index).txt", String(repeating: "x", count: index + 1)) }
        return source
    }

    /// The sample tree and a forgetful destination over a memory server, refusing uploads of `refused`.
    private static func forgetful(refusing refused: Set<String>) throws -> (LocalTree, MemoryServer, ForgetfulDestination) {
        let source = try sample()
        let memory = MemoryServer()
        let destination = ForgetfulDestination(base: memory.provider)
        destination.refused.withLockedValue { $0 = refused }
        return (source, memory, destination)
    }

    /// The key of a job of `mode` from the root of `source` to the root of `destination`.
    private static func rootJob(_ mode: String, _ source: LocalTree, _ destination: any StorageProvider) -> TransferJobKey {
        TransferJobKey(
            mode: mode, sourceAccount: source.provider.account, sourcePath: .root, destinationAccount: destination.account,
            destinationPath: .root)
    }

    @Test("a run stopped by failures is taken up: finished files are not sent again, even where the rule alone sees them changed")
    func resumesWithoutResending() async throws {
        let jobs = try Jobs()
        let (source, memory, destination) = try Self.forgetful(refusing: ["f3.txt", "f8.txt"])
        let events = NIOLockedValueBox<[Int]>([])
        let manager = TransferManager(options: Self.options(jobs)) { event in
            if case .resumed(let done) = event { events.withLockedValue { $0.append(done) } }
        }
        let target = TransferEndpoint(destination)

        let first = try await manager.sync(from: source.endpoint, to: target)
        #expect(first.filesCopied == 8)
        #expect(first.failures.map(\.relativePath) == ["/a/f3.txt", "/b/f8.txt"])
        #expect(!first.resumed)
        #expect(first.plan.rule.kind == .sizeAndModified)
        #expect(events.withLockedValue { $0 }.isEmpty)

        destination.refused.withLockedValue { $0 = [] }
        let puts = memory.counting.count(of: "PUT")
        let second = try await manager.sync(from: source.endpoint, to: target)
        #expect(second.succeeded)
        #expect(second.resumed)
        #expect(second.alreadyDone == 8)
        #expect(second.filesCopied == 2)
        #expect(Set(second.plan.actions(.copyFile).map(\.relativePath)) == ["/a/f3.txt", "/b/f8.txt"])
        #expect(memory.counting.count(of: "PUT") - puts == 2)
        #expect(events.withLockedValue { $0 } == [8])
        #expect(try await jobs.store.isComplete(Self.rootJob("sync", source, destination)) == true)

        // The job finished: the next run is a new job, and this destination's lost times make every file look changed.
        let third = try await manager.sync(from: source.endpoint, to: target)
        #expect(!third.resumed)
        #expect(third.alreadyDone == 0)
        #expect(third.filesCopied == 10)
    }

    @Test("a finished file is sent again when its source changed, or its destination file, or the job starts fresh")
    func changesAreSentAgain() async throws {
        let jobs = try Jobs()
        let (source, memory, destination) = try Self.forgetful(refusing: ["f9.txt"])
        let manager = TransferManager(options: Self.options(jobs))
        let target = TransferEndpoint(destination)
        #expect(try await manager.copy(from: source.endpoint, to: target).filesCopied == 9)

        destination.refused.withLockedValue { $0 = ["f9.txt"] }
        try source.write("a/f0.txt", "changed on the source")
        _ = try await memory.provider.upload(data: Data("changed on the destination".utf8), to: "/b/f5.txt", options: UploadOptions(conflict: .overwrite))
        let second = try await manager.copy(from: source.endpoint, to: target)
        #expect(second.resumed)
        #expect(second.alreadyDone == 7)
        #expect(Set(second.plan.actions(.copyFile).map(\.relativePath)) == ["/a/f0.txt", "/b/f5.txt", "/b/f9.txt"])
        #expect(String(decoding: try await memory.provider.data(at: "/a/f0.txt"), as: UTF8.self) == "changed on the source")
        #expect(String(decoding: try await memory.provider.data(at: "/b/f5.txt"), as: UTF8.self) == "xxxxxx")

        // Still unfinished (f9 refused); --fresh forgets what it finished.
        destination.refused.withLockedValue { $0 = [] }
        let fresh = try await TransferManager(options: Self.options(jobs, fresh: true)).copy(from: source.endpoint, to: target)
        #expect(!fresh.resumed)
        #expect(fresh.alreadyDone == 0)
        #expect(fresh.filesCopied == 10)
    }

    @Test("a dry run shows the files an unfinished run finished, and changes neither side nor the store")
    func dryRunPeeks() async throws {
        let jobs = try Jobs()
        let (source, _, destination) = try Self.forgetful(refusing: ["f1.txt"])
        let target = TransferEndpoint(destination)
        _ = try await TransferManager(options: Self.options(jobs)).copy(from: source.endpoint, to: target)
        var dry = Self.options(jobs)
        dry.dryRun = true
        let report = try await TransferManager(options: dry).copy(from: source.endpoint, to: target)
        #expect(report.alreadyDone == 9)
        #expect(report.plan.actions(.copyFile).map(\.relativePath) == ["/a/f1.txt"])
        #expect(try await jobs.store.unfinished(Self.rootJob("copy", source, destination))?.count == 9)
    }

    @Test("without a store nothing is remembered: the rule alone decides, as before")
    func withoutStore() async throws {
        let (source, _, destination) = try Self.forgetful(refusing: ["f2.txt"])
        let manager = TransferManager(options: Self.options(nil))
        _ = try await manager.copy(from: source.endpoint, to: TransferEndpoint(destination))
        destination.refused.withLockedValue { $0 = [] }
        let again = try await manager.copy(from: source.endpoint, to: TransferEndpoint(destination))
        #expect(!again.resumed)
        #expect(again.filesCopied == 10)
    }

    @Test("digests computed from source files are kept: a second check and sync of an unchanged tree read no source file")
    func digestsComputedOnce() async throws {
        let jobs = try Jobs()
        let tree = try Self.sample()
        let source = CountingReads(base: tree.provider)
        let memory = MemoryServer()
        let manager = TransferManager(options: Self.options(jobs))
        let from = TransferEndpoint(source)
        let first = try await manager.sync(from: from, to: memory.endpoint)
        #expect(first.plan.rule.computedOnSource)
        #expect(first.filesCopied == 10)
        #expect(source.total == 10)  // the copies; nothing to compare yet

        let check = try await manager.check(from, against: memory.endpoint)
        #expect(check.isIdentical)
        #expect(source.total == 20)  // each file read once for its digest
        let again = try await manager.check(from, against: memory.endpoint)
        #expect(again.isIdentical)
        #expect(source.total == 20)
        let resync = try await manager.sync(from: from, to: memory.endpoint)
        #expect(resync.plan.changesNothing)
        #expect(source.total == 20)

        // One file changed (same size, a later time): only it is read.
        try tree.write("a/f2.txt", "yyy")
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: tree.url.appendingPathComponent("a/f2.txt").path)
        let changed = try await manager.check(from, against: memory.endpoint)
        #expect(changed.differing == ["/a/f2.txt"])
        #expect(source.total == 21)
        #expect(source.reads.withLockedValue { $0["/a/f2.txt"] } == 3)

        // Without a store, every file is read again.
        let plain = try await TransferManager(options: Self.options(nil)).check(from, against: memory.endpoint)
        #expect(plain.differing == ["/a/f2.txt"])
        #expect(source.total == 31)
    }

    @Test("1,000 files local → local with a job store arrive whole, and the job is complete")
    func manyFilesRecorded() async throws {
        let jobs = try Jobs()
        let source = try LocalTree()
        for index in 0..<1000 { try source.write("d\(index % 10)/f\(index).txt", "file \(index)") }
        let destination = try LocalTree()
        var options = TransferManager.Options.testing(transfers: 8)
        options.pageSize = 1000
        options.jobStore = jobs.store
        let report = try await TransferManager(options: options).copy(from: source.endpoint, to: destination.endpoint)
        #expect(report.succeeded)
        #expect(report.filesCopied == 1000)
        #expect(try await jobs.store.isComplete(Self.rootJob("copy", source, destination.provider)) == true)
        #expect(try destination.listing() == (try source.listing()))
    }
}

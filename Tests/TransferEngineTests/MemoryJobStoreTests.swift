import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderConformance
import Testing
import TransferEngine

/// The transfer engine resumes a job through any ``TransferJobStore``, not only SharedCache's
/// SQLite one: a store in memory, written here from the protocol alone, is enough.
@Suite("a job store of one's own")
struct MemoryJobStoreTests {
    /// Jobs in memory: what a store outside SharedCache implements.
    final class MemoryJobStore: TransferJobStore {
        struct Stored {
            var jobs: [TransferJobKey: (id: Int64, complete: Bool)] = [:]
            var actions: [Int64: [ItemPath: TransferJobAction]] = [:]
            var digests: [String: String] = [:]
            var folders: [TransferJobKey: (settings: String, versions: [ItemPath: FolderVersion])] = [:]
            var names: [String: [RecordedName]] = [:]
            var nextID: Int64 = 1
            var calls: [String] = []
        }
        let stored = NIOLockedValueBox(Stored())

        func begin(_ key: TransferJobKey, fresh: Bool) async throws -> TransferJob {
            stored.withLockedValue { stored in
                stored.calls.append("begin")
                if !fresh, let job = stored.jobs[key], !job.complete {
                    let finished = (stored.actions[job.id] ?? [:]).values.compactMap { $0.state == .done ? $0.finished : nil }
                    return TransferJob(id: job.id, resumed: true, finished: finished)
                }
                let id = stored.nextID
                stored.nextID += 1
                stored.jobs[key] = (id, false)
                return TransferJob(id: id, resumed: false, finished: [])
            }
        }

        func unfinished(_ key: TransferJobKey) async throws -> [FinishedFile]? {
            stored.withLockedValue { stored in
                guard let job = stored.jobs[key], !job.complete else { return nil }
                return (stored.actions[job.id] ?? [:]).values.compactMap { $0.state == .done ? $0.finished : nil }
            }
        }

        func recordPlan(_ job: Int64, actions: [TransferJobAction]) async throws {
            stored.withLockedValue { stored in
                for action in actions where stored.actions[job]?[action.relativePath] == nil {
                    stored.actions[job, default: [:]][action.relativePath] = action
                }
            }
        }

        func record(_ job: Int64, _ actions: [TransferJobAction]) async throws {
            stored.withLockedValue { stored in
                for action in actions where stored.actions[job]?[action.relativePath]?.state != .done || action.state == .done {
                    stored.actions[job, default: [:]][action.relativePath] = action
                }
            }
        }

        func complete(_ job: Int64) async throws {
            stored.withLockedValue { stored in
                stored.calls.append("complete")
                for (key, value) in stored.jobs where value.id == job { stored.jobs[key] = (job, true) }
            }
        }

        func digest(of path: ItemPath, account: ProviderAccount, algorithm: DigestAlgorithm, version: FileFingerprint) async throws -> String? {
            stored.withLockedValue { $0.digests["\(account) \(path) \(algorithm.rawValue) \(version)"] }
        }

        func remember(digests: [ComputedDigest], account: ProviderAccount) async throws {
            stored.withLockedValue { stored in
                for computed in digests {
                    stored.digests["\(account) \(computed.path) \(computed.algorithm.rawValue) \(computed.version)"] = computed.digest
                }
            }
        }

        func folderVersions(of key: TransferJobKey, settings: String) async throws -> [ItemPath: FolderVersion] {
            stored.withLockedValue { stored in
                guard let record = stored.folders[key], record.settings == settings else { return [:] }
                return record.versions
            }
        }

        func replaceFolderVersions(of key: TransferJobKey, settings: String, with versions: [FolderVersion]) async throws {
            stored.withLockedValue { $0.folders[key] = (settings, Dictionary(versions.map { ($0.relativePath, $0) }) { _, last in last }) }
        }

        func remember(
            names mappings: [RecordedName], sourceAccount: ProviderAccount, sourcePath: ItemPath, destinationAccount: ProviderAccount,
            destinationPath: ItemPath
        ) async throws {
            let pair = "\(sourceAccount) \(sourcePath) \(destinationAccount) \(destinationPath)"
            stored.withLockedValue { $0.names[pair, default: []] += mappings }
        }

        func recordedNames(
            sourceAccount: ProviderAccount, sourcePath: ItemPath, destinationAccount: ProviderAccount, destinationPath: ItemPath
        ) async throws -> [RecordedName] {
            stored.withLockedValue { $0.names["\(sourceAccount) \(sourcePath) \(destinationAccount) \(destinationPath)"] ?? [] }
        }
    }

    @Test("a sync stopped by failures is taken up through a store in memory: the finished files are not sent again")
    func resumesThroughTheProtocol() async throws {
        let store = MemoryJobStore()
        let source = try LocalTree()
        for index in 0..<6 { try source.write("d/f\(index).txt", String(repeating: "x", count: index + 1)) }
        let memory = MemoryServer()
        let destination = TransferJobTests.ForgetfulDestination(base: memory.provider)
        destination.refused.withLockedValue { $0 = ["f4.txt"] }
        var options = TransferManager.Options.testing()
        options.jobStore = store
        let manager = TransferManager(options: options)
        let target = TransferEndpoint(destination)

        let first = try await manager.sync(from: source.endpoint, to: target)
        #expect(first.filesCopied == 5)
        #expect(!first.succeeded)

        destination.refused.withLockedValue { $0 = [] }
        let puts = memory.counting.count(of: "PUT")
        let second = try await manager.sync(from: source.endpoint, to: target)
        #expect(second.succeeded)
        #expect(second.resumed)
        #expect(second.alreadyDone == 5)
        #expect(second.plan.actions(.copyFile).map(\.relativePath) == ["/d/f4.txt"])
        #expect(memory.counting.count(of: "PUT") - puts == 1)
        #expect(store.stored.withLockedValue { $0.calls } == ["begin", "begin", "complete"])
    }
}

import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import SharedCache
import Testing
@testable import TransferEngine

/// The job recorder's group commit: transfers hand their records over and go on, each is reported
/// only once the store holds it, and a flush waits for every record and report.
@Suite("job recorder")
struct JobRecorderTests {
    private static func key() -> TransferJobKey {
        TransferJobKey(
            mode: "copy", sourceAccount: ProviderAccount(kind: "memory", server: "http://source"), sourcePath: .root,
            destinationAccount: ProviderAccount(kind: "memory", server: "http://destination"), destinationPath: .root)
    }

    @Test("records submitted from several transfers at once are each reported once, after the store holds them; flush waits for all")
    func submitThenReport() async throws {
        let jobs = try TransferJobTests.Jobs()
        let job = try await jobs.store.begin(Self.key())
        let recorder = JobRecorder(store: jobs.store, job: job.id)
        let files = 200
        let paths = try (0..<files).map { try ItemPath("/f\($0).bin") }
        // What the store held for a file when its report came (looked up after the report: the
        // store only ever gains done records, so a record missing then was missing at the report).
        let lookups = NIOLockedValueBox<[Task<Bool, Never>]>([])
        let reports = NIOLockedValueBox<[String: Int]>([:])
        let store = jobs.store
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<4 {
                group.addTask {
                    for index in stride(from: lane, to: files, by: 4) {
                        let path = paths[index]
                        recorder.submit(.init(relativePath: path, kind: "copyFile", state: .done)) {
                            reports.withLockedValue { $0[path.description, default: 0] += 1 }
                            let lookup = Task {
                                let actions = (try? await store.actions(of: job.id)) ?? []
                                return actions.contains { $0.relativePath == path && $0.state == .done }
                            }
                            lookups.withLockedValue { $0.append(lookup) }
                        }
                        await Task.yield()
                    }
                }
            }
        }
        await recorder.flush()
        let reported = reports.withLockedValue { $0 }
        #expect(reported.count == files)
        #expect(reported.values.allSatisfy { $0 == 1 })
        for lookup in lookups.withLockedValue({ $0 }) {
            #expect(await lookup.value)
        }
        #expect(recorder.records == files)
        #expect(recorder.writes >= 1 && recorder.writes <= files)
        let stored = try await jobs.store.actions(of: job.id)
        #expect(stored.filter { $0.state == .done }.count == files)
    }

    @Test("record waits for its commit; flush with nothing pending returns at once")
    func recordWaits() async throws {
        let jobs = try TransferJobTests.Jobs()
        let job = try await jobs.store.begin(Self.key())
        let recorder = JobRecorder(store: jobs.store, job: job.id)
        await recorder.flush()
        let path = ItemPath("/a.bin")
        await recorder.record(.init(relativePath: path, kind: "copyFile", state: .done))
        let stored = try await jobs.store.actions(of: job.id)
        #expect(stored.contains { $0.relativePath == path && $0.state == .done })
        await recorder.flush()
        #expect(recorder.writes == 1)
    }

    @Test("a plan submitted after a file was done leaves it done, records the rest as planned, and the flush waits for it")
    func planBesideTransfers() async throws {
        let jobs = try TransferJobTests.Jobs()
        let job = try await jobs.store.begin(Self.key())
        let recorder = JobRecorder(store: jobs.store, job: job.id)
        let done = ItemPath("/done.bin")
        let waiting = ItemPath("/waiting.bin")
        let reported = NIOLockedValueBox(false)
        recorder.submit(.init(relativePath: done, kind: "copyFile", state: .done)) { reported.withLockedValue { $0 = true } }
        recorder.submitPlan([
            .init(relativePath: done, kind: "copyFile", state: .planned), .init(relativePath: waiting, kind: "copyFile", state: .planned),
        ])
        await recorder.flush()
        #expect(reported.withLockedValue { $0 })
        let stored = Dictionary(uniqueKeysWithValues: try await jobs.store.actions(of: job.id).map { ($0.relativePath, $0.state) })
        #expect(stored == [done: .done, waiting: .planned])
        #expect(recorder.records == 3)
    }
}

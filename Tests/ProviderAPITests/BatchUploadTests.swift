import Foundation
import NIOCore
import ProviderAPI
import ProviderConformance
import Testing

/// Counts uploads running at once and fails the ones whose name says so; everything else
/// goes to an in-memory reference provider.
private struct GaugedProvider: StorageProvider {
    actor Gauge {
        private(set) var running = 0
        private(set) var peak = 0
        func enter() {
            running += 1
            peak = max(peak, running)
        }
        func leave() { running -= 1 }
    }

    let base: InMemoryProvider
    let gauge = Gauge()
    var capabilities: Capabilities { base.capabilities }
    var account: ProviderAccount { base.account }

    func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        await gauge.enter()
        try? await Task.sleep(for: .milliseconds(5))
        await gauge.leave()
        if name.hasPrefix("fail") { throw ProviderError(.forbidden, "\(name) is refused") }
        return try await base.upload(source, to: folder, name: name, options: options)
    }

    func item(at path: ItemPath) async throws -> Item { try await base.item(at: path) }
    func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage { try await base.list(folder, page: page) }
    func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        try await base.download(path, to: sink, options: options)
    }
    func createFolder(named name: String, in parent: ItemPath) async throws -> Item { try await base.createFolder(named: name, in: parent) }
    func delete(_ path: ItemPath) async throws { try await base.delete(path) }
    func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await base.move(source, to: destination, options: options)
    }
    func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await base.copy(source, to: destination, options: options)
    }
}

@Suite("Batch upload")
struct BatchUploadTests {
    private func provider() -> GaugedProvider {
        GaugedProvider(base: InMemoryProvider(transport: InMemoryServer(), capabilities: InMemoryProvider.fullCapabilities))
    }

    private func entries(_ names: [String]) -> [BatchUploadEntry] {
        names.map { BatchUploadEntry(source: DataSource(string: "content of \($0)"), folder: .root, name: $0) }
    }

    @Test("every file arrives, results in the order given, never more than the limit at once", arguments: [1, 4, 16])
    func limit(_ width: Int) async throws {
        let dav = provider()
        let names = (0..<40).map { "f\($0).txt" }
        let results = await dav.upload(entries(names), batch: BatchOptions(maxConcurrent: width))
        #expect(results.count == names.count)
        for (name, result) in zip(names, results) {
            #expect((try? result.get())?.name == name)
            #expect(try await dav.base.data(at: ItemPath("/" + name)) == Data("content of \(name)".utf8))
        }
        let peak = await dav.gauge.peak
        #expect(peak <= width)
        #expect(width == 1 || peak > 1, "uploads ran one at a time with a limit of \(width)")
    }

    @Test("a failure is reported for its entry and the others still upload")
    func failureKeepsGoing() async throws {
        let dav = provider()
        let results = await dav.upload(entries(["a", "fail-b", "c"]))
        #expect((try? results[0].get())?.name == "a")
        #expect((try? results[2].get())?.name == "c")
        guard case .failure(let error) = results[1] else {
            Issue.record("the refused upload succeeded")
            return
        }
        #expect(error.code == .forbidden)
    }

    @Test("stopOnFirstError leaves the entries not started as cancelled")
    func stopOnFirstError() async throws {
        let dav = provider()
        let names = ["fail-first"] + (0..<10).map { "n\($0)" }
        let results = await dav.upload(entries(names), batch: BatchOptions(maxConcurrent: 1, stopOnFirstError: true))
        guard case .failure(let first) = results[0] else {
            Issue.record("the refused upload succeeded")
            return
        }
        #expect(first.code == .forbidden)
        for result in results.dropFirst() {
            guard case .failure(let error) = result else {
                Issue.record("an upload ran after the batch stopped")
                continue
            }
            #expect(error.code == .cancelled)
        }
        #expect(try await dav.base.listAll(.root).isEmpty)
    }

    @Test("an empty batch gives no result and starts nothing")
    func emptyBatch() async throws {
        let dav = provider()
        let results = await dav.upload([], batch: BatchOptions(maxConcurrent: 4))
        #expect(results.isEmpty)
        #expect(await dav.gauge.peak == 0)
    }

    @Test("with stopOnFirstError and several lanes, the uploads under way finish, the rest end cancelled, and only the finished ones are stored")
    func stopOnFirstErrorWide() async throws {
        let dav = provider()
        let names = ["fail-first"] + (0..<200).map { "n\($0)" }
        let results = await dav.upload(entries(names), batch: BatchOptions(maxConcurrent: 4, stopOnFirstError: true))
        #expect(results.count == names.count)
        guard case .failure(let first) = results[0] else {
            Issue.record("the refused upload succeeded")
            return
        }
        #expect(first.code == .forbidden)
        // The other lanes finish what they had taken; every other entry ends cancelled, never lost.
        let succeeded = results.filter { (try? $0.get()) != nil }.count
        let cancelled = results.filter { if case .failure(let error) = $0 { error.code == .cancelled } else { false } }.count
        #expect(cancelled > 0)
        #expect(succeeded + cancelled == names.count - 1)
        #expect(try await dav.base.listAll(.root).count == succeeded)
    }
}

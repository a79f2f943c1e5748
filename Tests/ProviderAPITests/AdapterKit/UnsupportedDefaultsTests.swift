import Foundation
import ProviderAPI
import Testing

// Written as an outside adapter author would: plain imports, public API only.

/// An adapter that writes only the calls every provider must have: no move, copy, search,
/// shares, changes or quota, and it declares none of them.
private struct ReadWriteOnly: StorageProvider {
    var capabilities: Capabilities { Capabilities(features: [.etags]) }
    var account: ProviderAccount { ProviderAccount(kind: "minimal", server: "memory:") }
    func item(at path: ItemPath) async throws -> Item { Item(path: path, kind: .folder) }
    func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage { ItemPage(items: []) }
    func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        throw ProviderError(.notFound)
    }
    func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        Item(path: try folder.appending(name), kind: .file)
    }
    func createFolder(named name: String, in parent: ItemPath) async throws -> Item { Item(path: try parent.appending(name), kind: .folder) }
    func delete(_ path: ItemPath) async throws {}
}

@Suite("Adapter kit: default unsupported operations")
struct UnsupportedDefaultsTests {
    @Test("every optional call a provider does not write throws .unsupported naming the call, and its feature is not declared")
    func everyOptionalCall() async throws {
        let provider = ReadWriteOnly()
        let file: ItemPath = "/a.txt"
        let calls: [(feature: Capabilities.Features, name: String, call: @Sendable () async throws -> Void)] = [
            (.move, "move", { _ = try await provider.move(file, to: "/b.txt", options: TransferOptions()) }),
            (.copy, "copy", { _ = try await provider.copy(file, to: "/b.txt", options: TransferOptions()) }),
            (.search, "search", { _ = try await provider.search(.nameContains("a"), page: .first) }),
            (.shares, "shares", { _ = try await provider.shares(of: file) }),
            (.shares, "sharing", { _ = try await provider.share(file, with: ShareRequest(kind: .publicLink)) }),
            (.changes, "changes", { _ = try await provider.changes(since: nil) }),
            (.quota, "quota", { _ = try await provider.quota() }),
        ]
        for (feature, name, call) in calls {
            #expect(!provider.capabilities.supports(feature), "\(name) is not declared")
            let error = await #expect(throws: ProviderError.self, "\(name)") { try await call() }
            #expect(error?.code == .unsupported, "\(name): \(String(describing: error))")
            #expect(error?.message?.hasPrefix(name) == true, "the message names the call: \(String(describing: error?.message))")
        }
    }
}

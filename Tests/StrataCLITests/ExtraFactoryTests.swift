import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import Testing

@testable import StrataCLI

/// A third party's adapter, as small as the command line needs: one folder that lists empty,
/// and a probe that claims every server. It records the folders it was asked to list.
private struct AcmeFactory: ProviderFactory {
    let listed = NIOLockedValueBox<[String]>([])

    var kind: String { "acme" }
    var schemes: [String: String] { ["acme": "acme"] }

    func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
        AcmeProvider(account: ProviderAccount(kind: kind, server: configuration.url.absoluteString), listed: listed)
    }

    func probe(_ url: URL, context: ProbeContext) async -> ProbeResult? {
        ProbeResult(kind: kind, confidence: 10, detail: "acme claims every server", url: url)
    }
}

private struct AcmeProvider: StorageProvider {
    let account: ProviderAccount
    let listed: NIOLockedValueBox<[String]>
    var capabilities: Capabilities { Capabilities(features: [.emptyFolders]) }

    func item(at path: ItemPath) async throws -> Item {
        guard path.isRoot || path.description == "/docs" else { throw ProviderError(.notFound, "\(path) does not exist") }
        return Item(path: path, kind: .folder)
    }

    func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        _ = try await item(at: folder)
        listed.withLockedValue { $0.append(folder.description) }
        return ItemPage(items: [])
    }

    func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        throw ProviderError(.notFound, "\(path) does not exist")
    }

    func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        throw ProviderError.unsupported("uploads")
    }

    func createFolder(named name: String, in parent: ItemPath) async throws -> Item { throw ProviderError.unsupported("folders") }
    func delete(_ path: ItemPath) async throws { throw ProviderError.unsupported("delete") }
    func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        throw ProviderError.unsupported("move")
    }
    func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        throw ProviderError.unsupported("copy")
    }
}

@Suite("a strata built with an extra adapter")
struct ExtraFactoryTests {
    /// A remotes file that does not exist, so that no test reads the user's own.
    private static func noRemotes() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("strata-no-remotes-\(UUID().uuidString).json").path
    }

    @Test("the built-ins are always there and the extra adapter is listed as added")
    func listsTheAdapter() {
        let summaries = AdaptersCommand.summaries(of: StrataCommandLine(extraFactories: [AcmeFactory()]))
        #expect(summaries.first { $0.kind == "acme" } == AdapterSummary(kind: "acme", schemes: ["acme": "acme"], builtIn: false))
        for builtIn in StrataCommandLine.builtInFactories {
            #expect(summaries.contains { $0.kind == builtIn.kind && $0.builtIn }, "\(builtIn.kind) is missing")
        }
        #expect(!AdaptersCommand.summaries(of: StrataCommandLine()).contains { $0.kind == "acme" })
        #expect(StrataCommandLine(extraFactories: [AcmeFactory()]).registry().factory(scheme: "acme")?.kind == "acme")
    }

    @Test("a target with the extra adapter's scheme reaches it; without the adapter it is an error")
    func resolvesTargets() async {
        let factory = AcmeFactory()
        let remotes = Self.noRemotes()
        #expect(await StrataCommandLine().run(["ls", "--remotes", remotes, "acme://files.example/docs"]) != 0)
        #expect(factory.listed.withLockedValue { $0 }.isEmpty)

        let status = await StrataCommandLine(extraFactories: [factory]).run(["ls", "--remotes", remotes, "acme://files.example/docs"])
        #expect(status == 0)
        #expect(factory.listed.withLockedValue { $0 } == ["/docs"])
    }

    @Test("a saved remote of the extra adapter's kind reaches it")
    func savedRemote() async throws {
        let factory = AcmeFactory()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("strata-remotes-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let saved = ProviderRegistry()
        saved.addRemote(SavedRemote(name: "work", kind: "acme", url: try #require(URL(string: "acme://files.example/"))))
        try saved.saveRemotes(to: file)

        #expect(await StrataCommandLine().run(["ls", "--remotes", file.path, "work:/docs"]) != 0)
        #expect(await StrataCommandLine(extraFactories: [factory]).run(["ls", "--remotes", file.path, "work:/docs"]) == 0)
        #expect(factory.listed.withLockedValue { $0 } == ["/docs"])
    }

    @Test("detect asks the extra adapter's probe")
    func detects() async {
        // Port 1 on loopback refuses at once: no built-in adapter recognises it, the extra one claims it.
        let url = "http://127.0.0.1:1/"
        let remotes = Self.noRemotes()
        #expect(await StrataCommandLine().run(["detect", "--remotes", remotes, "--retries", "0", url]) != 0)
        #expect(await StrataCommandLine(extraFactories: [AcmeFactory()]).run(["detect", "--remotes", remotes, "--retries", "0", url]) == 0)
    }
}

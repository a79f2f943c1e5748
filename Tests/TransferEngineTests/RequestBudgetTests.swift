import Foundation
import HTTPProviderKit
import NextcloudTestServer
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import ProviderTesting
import PydioProvider
import PydioTestServer
import StrataTestSupport
import Testing
import TransferEngine
import WebDAVProvider

/// Issue 34's round-trip budget: the HTTP requests each adapter sends for each operation of the
/// public API, counted by method on a `RecordingTransport`, each held to the count written in
/// ``RequestBudget`` (today's count, with the protocol's minimum beside it), and printed as the
/// Markdown table of Benchmarks/README.md.
///
/// Each adapter gets a provider connected anew with nothing remembered (no `ServerFactStore`, no
/// cache), as a fresh `strata` process without its cache has; then the operations run one after
/// another in a fixed order on that one provider, so what the first of a kind pays (the WebDAV
/// capability verifier on a server's first write; a first get against a second) is its own row.
/// The loopback servers are started for the test, so their first write is measured; Apache's is
/// not (the verifier's verdict is kept per process and server, and other tests of the process
/// may have written to Apache first). Nothing in Strata sends requests in the background of an
/// operation (no keep-alive, no prefetch of a next page when the first is the last), so each
/// count is what the operation sent between its call and its return; the fixtures are made
/// through another provider whose requests are not counted.
///
/// Needs `scripts/with-servers` (Apache); the Nextcloud, Nuxeo and Pydio servers are the
/// loopback servers of Tests/Servers, started here.
@Suite("requests per operation", .liveServers, .serialized)
struct RequestBudgetTests {
    @Test("every adapter sends, for each operation, the requests of its budget and no more (nor fewer, unnoticed)")
    func requestsPerOperation() async throws {
        var table = RequestBudget.Table()
        for adapter in RequestBudget.Adapter.allCases {
            let subject = try await BudgetSubject.start(adapter)
            do {
                try await measure(subject, into: &table)
            } catch {
                await subject.stop()
                throw error
            }
            await subject.stop()
        }
        print(table.markdown)
        for adapter in RequestBudget.Adapter.allCases {
            for operation in RequestBudget.Operation.allCases {
                let measured = table.cell(operation, adapter)
                let budget = RequestBudget.budget(operation, adapter)
                #expect(
                    measured == budget,
                    """
                    \(adapter.title), \(operation.title): sent \(measured?.text ?? "(not measured)"), budget \(budget?.text ?? "(none)"). \
                    More is a regression; fewer: lower the budget in RequestBudget and the table in Benchmarks/README.md
                    """)
            }
        }
    }

    /// Runs every operation of ``RequestBudget/Operation`` on `subject` in order, recording what each sent.
    private func measure(_ subject: BudgetSubject, into table: inout RequestBudget.Table) async throws {
        let adapter = subject.adapter
        let base = subject.base
        let recorder = RecordingTransport(passingTo: AsyncHTTPClientTransport.shared)
        func record(_ operation: RequestBudget.Operation, _ body: () async throws -> Void) async throws {
            let before = recorder.requests.count
            try await body()
            let sent = Array(recorder.requests[before...])
            table.record(operation, adapter, RequestBudget.Counts(sent))
            if ProcessInfo.processInfo.environment["STRATA_BUDGET_VERBOSE"] == "1" {
                for request in sent {
                    // Pydio's action, not the query (it holds the session's token).
                    let action = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "get_action" }
                    print("  \(adapter.title) · \(operation.title): \(request.method.rawValue) \(request.url.path)\(action.map { " \($0.value ?? "")" } ?? "")")
                }
            }
        }

        var connected: (any StorageProvider)?
        try await record(.connect) { connected = try await subject.connect(recorder) }
        let provider = try #require(connected)
        if subject.isFresh {
            // A server new to this process: the provider's first write is the one the WebDAV
            // capability verifier runs beside. Then the fixtures, through another provider.
            try await record(.firstWrite) { _ = try await provider.createFolder(named: base.name, in: base.parent) }
            try await subject.fill()
        }
        let small = try base.appending("small.txt")
        let ten = try base.appending("ten")
        let manager = TransferManager()

        try await record(.stat) {
            let item = try await provider.item(at: small)
            #expect(item.size == Int64(BudgetSubject.smallContent.count))
        }
        try await record(.getFirst) {
            let data = try await provider.data(at: small)
            #expect(data == BudgetSubject.smallContent)
        }
        try await record(.getAgain) {
            let data = try await provider.data(at: small)
            #expect(data == BudgetSubject.smallContent)
        }
        try await record(.list) {
            let items = try await provider.listAll(ten)
            #expect(items.count == 10)
        }
        try await record(.mkdir) { _ = try await provider.createFolder(named: "made", in: base) }
        let put = try base.appending("put")
        try await record(.putNew) { _ = try await provider.upload(data: Data("one".utf8), to: try put.appending("one.txt")) }
        try await record(.putOverwrite) { _ = try await provider.upload(data: Data("1".utf8), to: try put.appending("one.txt")) }

        let local = try LocalTree()
        try local.write("one.txt", BudgetSubject.smallContent)
        // Older than the server's copy, which `check` then finds the same (by size, the
        // destination not older) whatever the second the fixtures were made in.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: local.url.appendingPathComponent("one.txt").path)
        let uploaded = TransferEndpoint(provider, at: try base.appending("copied in"))
        try await record(.copyUp) {
            let report = try await manager.copy(from: local.endpoint, to: uploaded)
            #expect(report.succeeded && report.filesCopied == 1, "\(report.failures.map(\.message))")
        }
        let downloaded = try LocalTree()
        try await record(.copyDown) {
            let report = try await manager.copy(from: TransferEndpoint(provider, at: try base.appending("one")), to: downloaded.endpoint)
            #expect(report.succeeded && report.filesCopied == 1, "\(report.failures.map(\.message))")
        }
        #expect(try downloaded.read("one.txt") == BudgetSubject.smallContent)
        try await record(.check) {
            let report = try await manager.check(local.endpoint, against: TransferEndpoint(provider, at: try base.appending("one")))
            #expect(report.isIdentical, "missing \(report.missing), extra \(report.extra), differing \(report.differing)")
        }
    }
}

/// One adapter's server for ``RequestBudgetTests``: a fresh folder on it holding the fixtures
/// (made through a provider of its own, not counted), and how to connect the provider measured.
struct BudgetSubject: Sendable {
    /// The content of `small.txt` and of `one/one.txt`: one small file.
    static let smallContent = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    let adapter: RequestBudget.Adapter
    /// The folder the operations run in, relative to the provider's root.
    let base: ItemPath
    /// Connects a provider for the adapter's root whose requests go through `transport`.
    let connect: @Sendable (any HTTPTransport) async throws -> any StorageProvider
    /// Whether the server was started for this test (so that no provider of this process has
    /// written to it yet) and holds no fixtures until ``fill()``; else they are there already.
    let isFresh: Bool
    let stop: @Sendable () async -> Void

    /// Makes the fixtures in ``base``, which exists, through a provider of its own.
    func fill() async throws {
        try await Self.fill(try await connect(AsyncHTTPClientTransport.shared), base, making: false)
    }

    static func start(_ adapter: RequestBudget.Adapter) async throws -> BudgetSubject {
        let folder = PairServer.folderName()
        let base = try ItemPath(folder)
        switch adapter {
        case .apache:
            let server = try LiveWebDAVServer.named("apache")
            let connect: @Sendable (any HTTPTransport) async throws -> any StorageProvider = { transport in
                try await WebDAVProvider.connect(ProviderConfiguration(url: server.url, credentials: server.credentials, transport: transport))
            }
            // Apache has served other tests of this process, which keeps what the verifier found
            // per server: its first write here is not a first, so the fixtures come first.
            let setup = try await connect(AsyncHTTPClientTransport.shared)
            try await fill(setup, base, making: true)
            return BudgetSubject(adapter: adapter, base: base, connect: connect, isFresh: false) { try? await setup.delete(base) }
        case .nextcloud:
            let password = "nc-\(UInt32.random(in: 0...UInt32.max))"
            // The verifier's verdicts are kept for the process by user and origin: a user of its
            // own makes the first write here a first even if a server of an earlier test had this port.
            let user = "budget\(UInt32.random(in: 0...UInt32.max))"
            let server = try await NextcloudTestServer.start(NextcloudTestServer.Configuration(users: [user: password]))
            let files = server.baseURL.absoluteString.trimmingSuffix("/") + "/remote.php/dav/files/\(user)/"
            let connect: @Sendable (any HTTPTransport) async throws -> any StorageProvider = { transport in
                try await OwnCloudProviderFactory.connect(configuration(files, user, password, transport), flavor: .nextcloud)
            }
            return started(adapter, base, connect) { await server.stop() }
        case .nuxeo:
            let password = "nx-\(UInt32.random(in: 0...UInt32.max))"
            var configuration = NuxeoTestServer.Configuration()
            configuration.users = ["ann": password]
            let server = try await NuxeoTestServer.start(configuration)
            let workspace = server.baseURL.absoluteString + "/default-domain/workspaces/strata"
            let connect: @Sendable (any HTTPTransport) async throws -> any StorageProvider = { transport in
                try await NuxeoProvider.connect(Self.configuration(workspace, "ann", password, transport))
            }
            return started(adapter, base, connect) { await server.stop() }
        case .pydio:
            let password = "py-\(UInt32.random(in: 0...UInt32.max))"
            var configuration = PydioTestServer.Configuration()
            configuration.users = ["ann": password]
            let server = try await PydioTestServer.start(configuration)
            let workspace = server.baseURL.absoluteString + "my-files"
            let connect: @Sendable (any HTTPTransport) async throws -> any StorageProvider = { transport in
                try await PydioProvider.connect(Self.configuration(workspace, "ann", password, transport))
            }
            return started(adapter, base, connect) { await server.stop() }
        }
    }

    /// The subject of a loopback server started in this process, empty until ``fill()``.
    private static func started(
        _ adapter: RequestBudget.Adapter, _ base: ItemPath, _ connect: @escaping @Sendable (any HTTPTransport) async throws -> any StorageProvider,
        stop: @escaping @Sendable () async -> Void
    ) -> BudgetSubject {
        BudgetSubject(adapter: adapter, base: base, connect: connect, isFresh: true, stop: stop)
    }

    /// The fixtures (in `base`, made first when `making`): `small.txt`, `ten/` with 10 files, `one/one.txt`, and an empty `put/`.
    private static func fill(_ provider: any StorageProvider, _ base: ItemPath, making: Bool) async throws {
        if making { _ = try await provider.createFolder(named: base.name, in: base.parent) }
        _ = try await provider.upload(data: smallContent, to: try base.appending("small.txt"))
        _ = try await provider.createFolder(named: "ten", in: base)
        for index in 0..<10 { _ = try await provider.upload(data: Data("\(index)".utf8), to: try base.appending("ten").appending("f\(index).txt")) }
        _ = try await provider.createFolder(named: "one", in: base)
        _ = try await provider.upload(data: smallContent, to: try base.appending("one").appending("one.txt"))
        _ = try await provider.createFolder(named: "put", in: base)
    }

    private static func configuration(_ url: String, _ user: String, _ password: String, _ transport: any HTTPTransport) -> ProviderConfiguration {
        ProviderConfiguration(
            url: URL(string: url) ?? URL(fileURLWithPath: "/"), credentials: .basic(username: user, password: password), transport: transport)
    }
}

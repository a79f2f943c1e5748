import CopypartyAdapter
import Foundation
import HTTPProviderKit
import ProviderAPI
import Testing

/// An overwriting upload whose move of the old file aside loses its answer: the server made the
/// move, the adapter heard a network failure. The old file must be back under its name, not left
/// under the hidden name it was moved to.
@Suite("the copyparty adapter's replace, on a live copyparty")
struct CopypartyReplaceTests {
    @Test(
        "an overwrite whose move aside loses its answer puts the old file back",
        .enabled(if: CopypartyConformanceTests.serverGiven, "no copyparty: run under scripts/with-servers, or set STRATA_COPYPARTY_URL"))
    func lostAnswerOfTheMoveAside() async throws {
        let environment = CopypartyConformanceTests.environment
        let url = try #require(environment["STRATA_COPYPARTY_URL"].flatMap(URL.init(string:)), "STRATA_COPYPARTY_URL is not set")
        let credentials = Credentials.basic(username: environment["STRATA_DAV_USER"] ?? "", password: environment["STRATA_DAV_PASS"] ?? "")
        let transport = LosingTransport(base: AsyncHTTPClientTransport.shared, losing: "name.txt?move=")
        let provider = try CopypartyProvider(configuration: ProviderConfiguration(url: url, credentials: credentials, transport: transport))
        let folder = try await provider.createFolder(named: "replace-\(UUID().uuidString.prefix(8))", in: .root).path

        _ = try await provider.upload(DataSource(string: "old"), to: folder, name: "name.txt", options: UploadOptions(conflict: .fail))
        await transport.arm()
        await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(DataSource(string: "new"), to: folder, name: "name.txt", options: UploadOptions(conflict: .overwrite))
        }
        #expect(await transport.lost == 1, "the move aside was not the request that lost its answer")

        let names = try await provider.list(folder, page: .first).items.map(\.name)
        #expect(names == ["name.txt"], "the folder holds \(names): the old file is not back, or a hidden file was left")
        let sink = MemorySink()
        _ = try await provider.download(try folder.appending("name.txt"), to: sink, options: DownloadOptions())
        #expect(await sink.bytes == Array("old".utf8))
        try await provider.delete(folder)
    }
}

extension CopypartyReplaceTests {
    @Test(
        "an overwrite never replaces a folder made at the name while the upload was sent",
        .enabled(if: CopypartyConformanceTests.serverGiven, "no copyparty: run under scripts/with-servers, or set STRATA_COPYPARTY_URL"))
    func folderMadeMeanwhile() async throws {
        let environment = CopypartyConformanceTests.environment
        let url = try #require(environment["STRATA_COPYPARTY_URL"].flatMap(URL.init(string:)), "STRATA_COPYPARTY_URL is not set")
        let credentials = Credentials.basic(username: environment["STRATA_DAV_USER"] ?? "", password: environment["STRATA_DAV_PASS"] ?? "")
        let other = try CopypartyProvider(configuration: ProviderConfiguration(url: url, credentials: credentials))
        let folder = try await other.createFolder(named: "race-\(UUID().uuidString.prefix(8))", in: .root).path
        // Once the staged upload is sent, another client makes a folder with a file at the name.
        let transport = HookTransport(base: AsyncHTTPClientTransport.shared, after: ".strata-upload-") {
            let made = try await other.createFolder(named: "name.txt", in: folder)
            _ = try await other.upload(DataSource(string: "theirs"), to: made.path, name: "inside.txt", options: UploadOptions())
        }
        let provider = try CopypartyProvider(configuration: ProviderConfiguration(url: url, credentials: credentials, transport: transport))

        await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(DataSource(string: "mine"), to: folder, name: "name.txt", options: UploadOptions(conflict: .overwrite))
        }
        let entries = try await other.list(folder, page: .first).items
        #expect(entries.map(\.name) == ["name.txt"] && entries.first?.isFolder == true, "the folder holds \(entries.map(\.name)), not the folder name.txt alone")
        let inside = try await other.list(try folder.appending("name.txt"), page: .first).items.map(\.name)
        #expect(inside == ["inside.txt"])
        try await other.delete(folder)
    }
}

/// Sends everything through `base`, and runs `then` once, after the first request whose URL
/// contains `after` was answered.
actor HookTransport: HTTPTransport {
    let base: any HTTPTransport
    let after: String
    private var hook: (@Sendable () async throws -> Void)?

    init(base: any HTTPTransport, after: String, then hook: @escaping @Sendable () async throws -> Void) {
        self.base = base
        self.after = after
        self.hook = hook
    }

    nonisolated func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await base.send(request)
        if let hook = await take(request.url.absoluteString) { try await hook() }
        return response
    }

    private func take(_ url: String) -> (@Sendable () async throws -> Void)? {
        guard url.contains(after) else { return nil }
        defer { hook = nil }
        return hook
    }
}

/// Sends everything through `base`; once armed, the first request whose URL ends with `losing`
/// is sent and answered, then reported as a network failure, as when a connection drops after
/// the server acted.
actor LosingTransport: HTTPTransport {
    let base: any HTTPTransport
    let losing: String
    private var armed = false
    private(set) var lost = 0

    init(base: any HTTPTransport, losing: String) {
        self.base = base
        self.losing = losing
    }

    func arm() { armed = true }

    nonisolated func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await base.send(request)
        guard await take(request.url.absoluteString) else { return response }
        await response.body.discard()
        throw ProviderError(.network, "the connection dropped before the answer")
    }

    private func take(_ url: String) -> Bool {
        guard armed, url.contains(losing) else { return false }
        armed = false
        lost += 1
        return true
    }
}

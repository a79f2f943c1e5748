import Foundation
import ProviderAPI
import StrataProcessKit
import StrataTestSupport
import Testing
import TransferEngine
import WebDAVProvider

/// One WebDAV tree spelt two ways (two roots on one server, `127.0.0.1` and `localhost`, two
/// logins, saved remotes): a sync of a folder into its parent is refused and nothing is deleted,
/// through the engine and through `strata`. Against the Apache of `scripts/with-servers`.
@Suite("copy and sync refuse one WebDAV tree spelt two ways")
struct TreeOverlapLiveTests {
    /// A scratch folder on Apache holding `src/a.txt` and `src/b/keep.txt`, the provider of its
    /// server root, and the server's URL and account.
    static func sample() async throws -> (root: WebDAVProvider, scratch: ItemPath, url: URL, credentials: Credentials) {
        let (root, _, scratch) = try await LiveTransferTests.scratch("apache")
        let (url, credentials) = try LiveTransferTests.server("apache")
        _ = try await root.createFolder(named: "src", in: scratch)
        _ = try await root.createFolder(named: "b", in: try scratch.appending("src"))
        _ = try await root.upload(data: Data("one".utf8), to: try ItemPath("\(scratch)/src/a.txt"))
        _ = try await root.upload(data: Data("two".utf8), to: try ItemPath("\(scratch)/src/b/keep.txt"))
        return (root, scratch, url, credentials)
    }

    /// The folder `relative` of the sample as a URL on `host` (as written, with a user name when given).
    static func url(_ url: URL, host: String, user: String? = nil, _ relative: String) throws -> URL {
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        components.host = host
        components.user = user
        components.percentEncodedPath = relative
        return try #require(components.url)
    }

    static func expectIntact(_ root: WebDAVProvider, _ scratch: ItemPath, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await root.data(at: try ItemPath("\(scratch)/src/a.txt")) == Data("one".utf8), sourceLocation: sourceLocation)
        #expect(try await root.data(at: try ItemPath("\(scratch)/src/b/keep.txt")) == Data("two".utf8), sourceLocation: sourceLocation)
        #expect(try await root.listAll(try scratch.appending("src")).map(\.name).sorted() == ["a.txt", "b"], sourceLocation: sourceLocation)
    }

    static func expectRefused(sourceLocation: SourceLocation = #_sourceLocation, _ job: () async throws -> TransferReport) async {
        do {
            let report = try await job()
            Issue.record("not refused: \(report.plan.actions.map { "\($0.kind) \($0.relativePath)" })", sourceLocation: sourceLocation)
        } catch let error as ProviderError {
            #expect(error.code == .invalidArgument, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message?.contains("one tree") == true, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("two roots on one server, 127.0.0.1 and localhost, another login: sync into the parent is refused, nothing deleted")
    func engineSpellings() async throws {
        let (root, scratch, url, credentials) = try await Self.sample()
        defer { Task { try? await root.delete(scratch) } }
        let manager = TransferManager(options: .testing())
        func dav(_ host: String, _ relative: String, user: String? = nil) throws -> WebDAVProvider {
            try WebDAVProvider(
                configuration: ProviderConfiguration(url: try Self.url(url, host: host, user: user, relative), credentials: credentials))
        }
        let top = try dav("127.0.0.1", "/\(scratch.name)/src/")
        // Two roots on one server: the sub-folder's provider synced into the parent's.
        await Self.expectRefused { try await manager.sync(from: TransferEndpoint(try dav("127.0.0.1", "/\(scratch.name)/src/b")), to: TransferEndpoint(top)) }
        // The same server as localhost, with a doubled slash and a percent-escaped name in the path
        // (a `..` in a WebDAV root is refused by the adapter itself: the server's hrefs never match it).
        await Self.expectRefused {
            try await manager.sync(from: TransferEndpoint(try dav("localhost", "/\(scratch.name)//src/%62/")), to: TransferEndpoint(top))
        }
        // A user name in one URL only, and another login on the same root: two users can see one tree.
        await Self.expectRefused {
            try await manager.sync(
                from: TransferEndpoint(try dav("localhost", "/\(scratch.name)/src/", user: "someone"), at: "/b"), to: TransferEndpoint(top))
        }
        await Self.expectRefused {
            try await manager.sync(from: TransferEndpoint(OtherUser(base: top), at: "/b"), to: TransferEndpoint(top))
        }
        // Into its own child, through the other spelling.
        await Self.expectRefused {
            try await manager.copy(from: TransferEndpoint(top), to: TransferEndpoint(try dav("localhost", "/\(scratch.name)/src/b/"), at: "/new"))
        }
        try await Self.expectIntact(root, scratch)
        #expect(try await root.itemIfExists(at: try ItemPath("\(scratch)/src/b/new")) == nil)
    }

    @Test("strata sync sub:/ top:/ with two saved remotes on one server (and as URLs through localhost) is refused, nothing deleted")
    func savedRemotes() async throws {
        let (root, scratch, url, credentials) = try await Self.sample()
        defer { Task { try? await root.delete(scratch) } }
        guard let user = credentials.username, let password = credentials.password else { throw ProviderError(.invalidArgument, "a basic login") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-overlap-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment: [String: String?] = [
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
            "STRATA_USER": user, "STRATA_PASSWORD": password,
        ]
        func strata(_ arguments: [String]) async throws -> StrataRun { try await StrataProcess.run(arguments, environment: environment) }
        func webdav(_ host: String, _ relative: String, user: String? = nil) throws -> String {
            try Self.url(url, host: host, user: user, relative).absoluteString.replacingOccurrences(of: "http://", with: "webdav://")
        }
        #expect(try await strata(["remote", "add", "top", try webdav("127.0.0.1", "/\(scratch.name)/src")]).status == 0)
        #expect(try await strata(["remote", "add", "sub", try webdav("127.0.0.1", "/\(scratch.name)/src/b")]).status == 0)

        for arguments in [
            ["sync", "sub:/", "top:/"],
            ["sync", "top:/b/", "top:/"],
            ["sync", try webdav("localhost", "/\(scratch.name)/src/b/"), try webdav("127.0.0.1", "/\(scratch.name)/src", user: user)],
            ["copy", "top:/", "sub:/new"],
        ] {
            let run = try await strata(arguments)
            #expect(run.status != 0, "\(arguments): \(run)")
            #expect(run.error.contains("one tree"), "\(arguments): \(run)")
            #expect(!run.outputText.contains("deleted"), "\(arguments): \(run)")
        }
        try await Self.expectIntact(root, scratch)
        #expect(try await root.itemIfExists(at: try ItemPath("\(scratch)/src/b/new")) == nil)
    }
}

/// A provider passed through under another user's account (its files and location unchanged).
struct OtherUser: ForwardingProvider {
    let base: any StorageProvider
    var account: ProviderAccount {
        var account = base.account
        account.user = "someone-else"
        return account
    }
}

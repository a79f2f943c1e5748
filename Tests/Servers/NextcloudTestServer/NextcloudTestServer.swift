import Foundation
import Hummingbird
import LoopbackServerKit
import NIOCore

/// A loopback server speaking the ownCloud 10 / Nextcloud 18–30 dialect, backed by memory:
///
/// - `status.php`; OCS `cloud/capabilities`, `cloud/user` and the files_sharing API (v1 and v2, XML or JSON);
/// - WebDAV at `remote.php/dav/files/USER/` and `remote.php/webdav/` (PROPFIND, PROPPATCH, GET with
///   Range, HEAD, PUT with `OC-Checksum` and `X-OC-Mtime`, MKCOL, DELETE, MOVE, COPY, REPORT);
/// - chunking v2 at `remote.php/dav/uploads/USER/`, ownCloud chunking v1 (`OC-Chunked`), `SEARCH` on
///   `remote.php/dav/`, file versions at `remote.php/dav/versions/USER/` (Nextcloud);
/// - names in NFC, PROPFIND `Depth: infinity`, 401 for wrong credentials on every authenticated route;
/// - the trash bin (Nextcloud's `trashbin/USER/trash`, ownCloud's `trash-bin/USER/`), collaborative
///   tags (`systemtags`), received shares mounted at the recipient's root, public links (`/s/TOKEN`,
///   `public.php/webdav`);
/// - fault hooks (``NextcloudFaults``) and a record of every request (``requests()``).
///
/// Its answers are compared with the responses recorded from real servers in
/// `Tests/Fixtures/nextcloud` by `NextcloudTestServerTests`.
///
/// ```swift
/// let server = try await NextcloudTestServer.start()
/// print(server.baseURL)   // http://127.0.0.1:54321
/// await server.stop()
/// ```
public final class NextcloudTestServer: Sendable {
    let core: ServerCore
    private let listener: LoopbackListener

    private init(core: ServerCore, listener: LoopbackListener) {
        self.core = core
        self.listener = listener
    }

    /// Binds and starts serving; returns once the socket is listening.
    public static func start(_ configuration: Configuration = .init()) async throws -> NextcloudTestServer {
        let core = ServerCore(configuration: configuration)
        let router = NextcloudRouter(core: core)
        let listener = try await LoopbackListener.start(
            host: configuration.host, port: configuration.port, label: "strata.nextcloud-test-server"
        ) { (request: Request, context: BasicRequestContext) in
            await router.respond(to: request)
        }
        core.port = listener.port
        return NextcloudTestServer(core: core, listener: listener)
    }

    /// The bound port.
    public var port: Int { core.port }

    /// `http://127.0.0.1:PORT`, the server root (`status.php`, `remote.php`, `ocs/`).
    public var baseURL: URL { URL(string: core.rootURL) ?? URL(fileURLWithPath: "/") }

    /// Fault hooks.
    public var faults: NextcloudFaults { core.faults }

    /// The instance id in every `oc:id`.
    public var instanceID: String { core.instanceID }

    /// Stops serving and waits until the listener is closed.
    public func stop() async {
        await listener.stop()
    }

    /// Waits until the process receives one of `signals`, then stops the server.
    public func runUntilSignalled(_ signals: [Int32] = [SIGTERM, SIGINT]) async {
        await SignalWaiter.wait(for: signals)
        await stop()
    }

    /// Every request received so far, in order (`Authorization` redacted).
    public func requests() -> [RecordedRequest] {
        core.withState { $0.requests }
    }

    /// Forgets the recorded requests.
    public func resetRequests() {
        core.withState { $0.requests.removeAll() }
    }

    /// Deletes every chunked upload in progress (v2 folders and v1 chunks), as the server's cleanup
    /// of old uploads does.
    public func expireUploads() {
        core.withState { state in
            state.files.uploads.removeAll()
            state.files.legacyChunks.removeAll()
        }
    }

    /// The stored chunks of `user`'s unfinished ownCloud v1 uploads (`name-chunking-ID-N-i`), sorted.
    public func legacyChunks(user: String) -> [String] {
        core.withState { FilesEndpoint.pendingLegacyChunks($0, user: user) }
    }

    /// The older versions of `user`'s file at `path` (their names, newest first), `nil` when no file is there.
    public func versions(user: String, path: String) -> [String]? {
        core.withState { state in
            guard let root = state.files.roots[user], let id = state.files.resolve(root, Self.components(path)) else { return nil }
            return (state.files.versions[id] ?? []).map { String($0.revision) }
        }
    }

    /// The names of `user`'s upload folders in progress.
    public func uploads(user: String) -> [String] {
        core.withState { ($0.files.uploads[user] ?? [:]).keys.sorted() }
    }
}

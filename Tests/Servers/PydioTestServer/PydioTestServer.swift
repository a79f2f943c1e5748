import Foundation
import Hummingbird
import LoopbackServerKit
import Logging
import NIOCore

/// A loopback server speaking the pydio-core 8.2.5 session API (`index.php`
/// with `get_action`), backed by in-memory workspaces. Used by the test suite
/// and the demo.
///
/// ```swift
/// let server = try await PydioTestServer.start()
/// print(server.baseURL)   // http://127.0.0.1:54321/pydio/
/// await server.stop()
/// ```
public final class PydioTestServer: Sendable {
    private let core: ServerCore
    private let listener: LoopbackListener

    private init(core: ServerCore, listener: LoopbackListener) {
        self.core = core
        self.listener = listener
    }

    /// Binds and starts serving; returns once the socket is listening.
    public static func start(_ configuration: Configuration = .init()) async throws -> PydioTestServer {
        let core = ServerCore(configuration: configuration)
        let router = PydioRouter(core: core)
        let listener = try await LoopbackListener.start(
            host: configuration.host, port: configuration.port, label: "strata.pydio-test-server"
        ) { (request: Request, context: PydioRequestContext) in
            await router.respond(to: request, context: context)
        }
        core.port = listener.port
        return PydioTestServer(core: core, listener: listener)
    }

    /// The bound port.
    public var port: Int { core.port }

    /// `http://127.0.0.1:PORT/pydio/` (with the trailing slash).
    public var baseURL: URL {
        URL(string: core.baseURL) ?? URL(fileURLWithPath: "/")
    }

    /// Fault hooks.
    public var faults: PydioFaults { core.faults }

    /// Stops serving and waits until the listener is closed.
    public func stop() async {
        await listener.stop()
    }

    /// Waits until the process receives SIGTERM or SIGINT, then stops the server.
    public func runUntilSignalled() async {
        await SignalWaiter.wait(for: [SIGTERM, SIGINT])
        await stop()
    }

    // MARK: - Test helpers

    /// Every request received so far, in order.
    public func requests() -> [PydioRecordedRequest] {
        core.withState { $0.requests }
    }

    /// Runs the background tasks held so far (``Configuration/holdsBackgroundTasks``) and returns
    /// how many ran.
    @discardableResult
    public func runBackgroundTasks() -> Int {
        core.runHeldTasks()
    }

    /// Forgets the recorded requests.
    public func resetRequests() {
        core.withState { $0.requests.removeAll() }
    }

    /// The number of files (folders not counted) in a workspace, given by id
    /// (`"1"`) or slug (`"my-files"`); the recycle bin is not counted. `0` for
    /// an unknown workspace.
    public func fileCount(workspace: String) -> Int {
        core.withState { state in
            guard let id = WorkspaceCatalog.resolve(workspace)?.id else { return 0 }
            return state.workspaces[id]?.fileCount(includingRecycleBin: false) ?? 0
        }
    }

    /// Places a file directly in a workspace, as an administrator copying it
    /// onto the server disk would (mode `0644`, missing parent folders created
    /// with mode `0755`). Replaces an existing file. For seeding test data.
    public func seedFile(workspace: String, path: String, contents: Data, modified: Date = Date()) {
        core.withState { state in
            guard let id = WorkspaceCatalog.resolve(workspace)?.id else { return }
            state.workspaces[id]?.seed(path: path, contents: contents, mtime: Int64(modified.timeIntervalSince1970))
        }
    }

    /// Creates a folder (and its parents) directly in a workspace with mode `0755`.
    public func seedFolder(workspace: String, path: String, modified: Date = Date()) {
        core.withState { state in
            guard let id = WorkspaceCatalog.resolve(workspace)?.id else { return }
            state.workspaces[id]?.seed(path: path, contents: nil, mtime: Int64(modified.timeIntervalSince1970))
        }
    }
}

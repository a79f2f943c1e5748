import Foundation
import Hummingbird
import LoopbackServerKit
import Logging
import NIOCore

/// A loopback server speaking the Nuxeo 10.10 REST wire protocol, backed by an
/// in-memory repository. Used by the test suite and the demo.
///
/// ```swift
/// let server = try await NuxeoTestServer.start()
/// defer { Task { await server.stop() } }
/// print(server.baseURL)   // http://127.0.0.1:54321/nuxeo
/// ```
public final class NuxeoTestServer: Sendable {
    let core: ServerCore
    private let listener: LoopbackListener

    private init(core: ServerCore, listener: LoopbackListener) {
        self.core = core
        self.listener = listener
    }

    /// Binds and starts serving; returns once the socket is listening.
    public static func start(_ configuration: Configuration = .init()) async throws -> NuxeoTestServer {
        let core = ServerCore(configuration: configuration)
        let router = NuxeoRouter(core: core)
        let listener = try await LoopbackListener.start(
            host: configuration.host, port: configuration.port, label: "strata.nuxeo-test-server"
        ) { (request: Request, context: BasicRequestContext) in
            await router.respond(to: request, context: context)
        }
        core.port = listener.port
        return NuxeoTestServer(core: core, listener: listener)
    }

    /// The bound port.
    public var port: Int { core.port }

    /// `http://127.0.0.1:PORT/nuxeo` (no trailing slash).
    public var baseURL: URL {
        URL(string: core.baseURL()) ?? URL(fileURLWithPath: "/")
    }

    /// Fault hooks.
    public var faults: NuxeoFaults { core.faults }

    /// Stops serving and waits until the listener is closed.
    public func stop() async {
        await listener.stop()
    }

    /// Waits until the process receives one of `signals` (SIGTERM and SIGINT by
    /// default), then stops the server.
    public func runUntilSignalled(_ signals: [Int32] = [SIGTERM, SIGINT]) async {
        await SignalWaiter.wait(for: signals)
        await stop()
    }

    // MARK: - Test helpers

    /// Every request received so far, in order.
    public func requests() -> [RecordedRequest] {
        core.withState { $0.requests }
    }

    /// Forgets the recorded requests.
    public func resetRequests() {
        core.withState { $0.requests.removeAll() }
    }

    /// Simulates a concurrent edit by someone else on the document at `path`:
    /// bumps its change token and `dc:modified`.
    public func touch(path: String) {
        core.withState { state in
            guard let doc = state.repository.resolve(reference: path) else { return }
            state.repository.mutate(doc.uid) { $0.touch(by: "someone-else") }
            state.repository.log(AuditEntry.Event.modified, doc.uid, user: "someone-else")
        }
    }

    /// The number of documents in the repository (the root included).
    public func documentCount() -> Int {
        core.withState { $0.repository.count }
    }

    /// Forgets every upload batch, as the transient store does when their time to live ends
    /// (spec §5.3: a batch call then answers 404).
    public func expireBatches() {
        core.withState { $0.batches = BatchStore() }
    }

    /// How many upload batches the server holds.
    public func batchCount() -> Int {
        core.withState { $0.batches.batches.count }
    }
}

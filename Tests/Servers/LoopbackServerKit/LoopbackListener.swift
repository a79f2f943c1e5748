import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A Hummingbird server bound on loopback for a test server: starts it, reports the port it got
/// (port 0 picks a free one), and stops it. The loopback Nuxeo and Pydio servers share it.
///
/// ```swift
/// let listener = try await LoopbackListener.start(host: "127.0.0.1", port: 0, label: "my-test-server") {
///     (request: Request, context: BasicRequestContext) in Response(status: .ok)
/// }
/// print(listener.port)
/// await listener.stop()
/// ```
public struct LoopbackListener: Sendable {
    /// The port the server is bound to.
    public let port: Int
    private let task: Task<Void, Never>
    private let group: ServiceGroup

    private struct StoppedBeforeBinding: Error {}

    /// Binds `host:port` and serves `respond`; returns once the socket is listening.
    public static func start<Context: RequestContext>(
        host: String, port: Int, label: String,
        respond: @escaping @Sendable (Request, Context) async -> Response
    ) async throws -> LoopbackListener where Context.Source == ApplicationRequestContextSource {
        let (events, continuation) = AsyncStream<Result<Int, any Error>>.makeStream()
        var logger = Logger(label: label)
        logger.logLevel = .critical
        let app = Application(
            responder: CallbackResponder<Context> { request, context in await respond(request, context) },
            configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in continuation.yield(.success(channel.localAddress?.port ?? port)) },
            eventLoopGroupProvider: .shared(LoopbackExecutor.shared.group),
            logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: logger))
        // The server and every task it starts for a connection run on the servers' own threads,
        // never waiting in the queue of the tests' pool (see LoopbackExecutor).
        let task = Task<Void, Never>(executorPreference: LoopbackExecutor.shared) {
            do {
                try await group.run()
                continuation.yield(.failure(StoppedBeforeBinding()))
            } catch {
                continuation.yield(.failure(error))
            }
            continuation.finish()
        }
        for await event in events {
            switch event {
            case .success(let bound): return LoopbackListener(port: bound, task: task, group: group)
            case .failure(let error): throw error
            }
        }
        throw StoppedBeforeBinding()
    }

    /// Stops serving and waits until the listener is closed.
    ///
    /// A graceful shutdown: the server stops accepting, answers what it is answering and closes
    /// its idle connections. Cancelling the serving task instead trapped the whole test process
    /// ("Deinited NIOAsyncWriter without calling finish()") when a connection had been accepted
    /// but not yet taken up, which a loaded machine made likely (swift-nio#3481). A handler that
    /// never ends (a test's stalled answer) would hold a graceful shutdown for ever, so after
    /// ``gracePeriod`` the task is cancelled as before.
    public func stop() async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let cancel = Task {
            try? await Task.sleep(for: Self.gracePeriod)
            task.cancel()
        }
        await task.value
        cancel.cancel()
    }

    /// How long ``stop()`` lets the server finish gracefully before cancelling it: a safety net for
    /// a handler that never ends, far above what a served request takes on a loaded machine.
    public static let gracePeriod: Duration = .seconds(20)
}

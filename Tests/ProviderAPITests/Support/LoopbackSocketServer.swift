import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A raw TCP server on 127.0.0.1 that misbehaves as told, for testing the transport's deadlines
/// against real sockets: it answers every connection's first bytes with a script.
final class LoopbackSocketServer: Sendable {
    /// What the server does once a request has arrived.
    enum Behaviour: Sendable {
        /// Reads the request and never answers.
        case silent
        /// Sends `head` (status line, headers and any body start), then nothing more.
        case stallAfter(String)
        /// Sends `head`, then `piece` every `interval`, for ever.
        case trickle(head: String, piece: [UInt8], interval: TimeAmount)
        /// Accepts and never reads: an upload fills the socket's buffers and then stalls.
        case neverRead
    }

    private let channel: any Channel
    /// Connections accepted so far.
    let accepted: NIOLockedValueBox<Int>
    /// The port the server listens on.
    let port: Int

    private init(channel: any Channel, accepted: NIOLockedValueBox<Int>) throws {
        self.channel = channel
        self.accepted = accepted
        guard let port = channel.localAddress?.port else { throw ChannelError.unknownLocalAddress }
        self.port = port
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String = "/") -> URL {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { preconditionFailure("bad path \(path)") }
        return url
    }

    /// Starts a server that behaves as `behaviour` on every connection.
    static func start(_ behaviour: Behaviour) async throws -> LoopbackSocketServer {
        let accepted = NIOLockedValueBox(0)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.autoRead, value: true)
            .childChannelInitializer { channel in
                accepted.withLockedValue { $0 += 1 }
                if case .neverRead = behaviour {
                    return channel.setOption(ChannelOptions.autoRead, value: false)
                }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ScriptHandler(behaviour))
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        return try LoopbackSocketServer(channel: channel, accepted: accepted)
    }

    /// Stops listening (connections already open close with their clients).
    func stop() async throws {
        try await channel.close()
    }

    /// A loopback port where nothing listens: a server is bound there, then closed.
    static func closedPort() async throws -> Int {
        let server = try await start(.silent)
        try await server.stop()
        return server.port
    }
}

/// Plays a ``LoopbackSocketServer/Behaviour`` on one connection.
private final class ScriptHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let behaviour: LoopbackSocketServer.Behaviour
    private var answered = false
    private var task: RepeatedTask?

    init(_ behaviour: LoopbackSocketServer.Behaviour) { self.behaviour = behaviour }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        answered = true
        switch behaviour {
        case .silent, .neverRead:
            break
        case .stallAfter(let head):
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: head)), promise: nil)
        case .trickle(let head, let piece, let interval):
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: head)), promise: nil)
            let channel = context.channel
            task = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
                channel.writeAndFlush(ByteBuffer(bytes: piece), promise: nil)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        task?.cancel()
        task = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

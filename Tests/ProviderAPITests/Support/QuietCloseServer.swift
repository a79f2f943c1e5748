import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP server on 127.0.0.1 that closes a kept-alive connection without saying so, as chezdav
/// does after a DELETE: the first connection answers its first request `204` with no
/// `Connection: close`, then closes when its next request arrives, before any byte of an answer.
/// Every other connection answers each request `201` (`200` to a GET) and stays open.
final class QuietCloseServer: Sendable {
    private let channel: any Channel
    /// Connections accepted so far.
    let accepted: NIOLockedValueBox<Int>
    /// The requests answered, as `METHOD path`, in order.
    let answered: NIOLockedValueBox<[String]>
    /// The port the server listens on.
    let port: Int

    private init(channel: any Channel, accepted: NIOLockedValueBox<Int>, answered: NIOLockedValueBox<[String]>) throws {
        self.channel = channel
        self.accepted = accepted
        self.answered = answered
        guard let port = channel.localAddress?.port else { throw ChannelError.unknownLocalAddress }
        self.port = port
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String) -> URL {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { preconditionFailure("bad path \(path)") }
        return url
    }

    static func start() async throws -> QuietCloseServer {
        let accepted = NIOLockedValueBox(0)
        let answered = NIOLockedValueBox<[String]>([])
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let number = accepted.withLockedValue { count in
                    count += 1
                    return count
                }
                return channel.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                    try channel.pipeline.syncOperations.addHandler(Handler(closesQuietly: number == 1, answered: answered))
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        return try QuietCloseServer(channel: channel, accepted: accepted, answered: answered)
    }

    func stop() async throws {
        try await channel.close()
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let closesQuietly: Bool
        let answered: NIOLockedValueBox<[String]>
        var requests = 0
        var head: HTTPRequestHead?

        init(closesQuietly: Bool, answered: NIOLockedValueBox<[String]>) {
            self.closesQuietly = closesQuietly
            self.answered = answered
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): self.head = head
            case .body: break
            case .end:
                requests += 1
                guard let head else { return }
                if closesQuietly, requests > 1 {
                    context.close(promise: nil)
                    return
                }
                answered.withLockedValue { $0.append("\(head.method.rawValue) \(head.uri)") }
                let status: HTTPResponseStatus = closesQuietly ? .noContent : head.method == .GET ? .ok : .created
                var headers = HTTPHeaders()
                if status != .noContent { headers.add(name: "Content-Length", value: "0") }
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}

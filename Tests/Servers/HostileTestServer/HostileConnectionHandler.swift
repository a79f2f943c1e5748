import NIOCore
import NIOHTTP1

/// Reads one request per connection (method, target, headers, body size and prefix) and hands
/// it to the server core, which writes the scenario's raw answer and closes the connection.
final class HostileConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart

    private let core: HostileServerCore
    private var head: HTTPRequestHead?
    private var bodySize = 0
    private var bodyPrefix: [UInt8] = []
    private var answered = false
    static let prefixLimit = 64 << 10

    init(core: HostileServerCore) {
        self.core = core
    }

    func channelActive(context: ChannelHandlerContext) {
        core.opened(context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let head, !answered, core.scenario.seesCutRequests {
            // The body broke off: the scenario sees what arrived (its answer reaches no one).
            answered = true
            core.received(
                method: head.method.rawValue, uri: head.uri,
                headers: head.headers.map { HostileRequest.Header(name: $0.name, value: $0.value) },
                bodySize: bodySize, bodyPrefix: bodyPrefix, on: context.channel, cut: true)
        }
        core.closed(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let received):
            head = received
            bodySize = 0
            bodyPrefix = []
        case .body(var buffer):
            bodySize += buffer.readableBytes
            let room = Self.prefixLimit - bodyPrefix.count
            if room > 0, let bytes = buffer.readBytes(length: min(room, buffer.readableBytes)) {
                bodyPrefix += bytes
            }
        case .end:
            guard let head, !answered else { return }
            answered = true
            core.received(
                method: head.method.rawValue, uri: head.uri,
                headers: head.headers.map { HostileRequest.Header(name: $0.name, value: $0.value) },
                bodySize: bodySize, bodyPrefix: bodyPrefix, on: context.channel)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

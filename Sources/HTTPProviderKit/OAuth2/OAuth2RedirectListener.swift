import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import ProviderAPI

/// The loopback redirect of a native app's authorization request (RFC 8252 §7.3): listens on
/// `http://127.0.0.1:PORT/callback` (a free port), accepts the one request that brings the
/// expected `state`, shows the browser a page saying the sign-in may be closed, and gives the
/// `code` (or the server's `error`). Other requests get a 400 and are otherwise ignored.
package final class OAuth2RedirectListener: Sendable {
    /// The redirect URI to register and send: `http://127.0.0.1:PORT/callback`.
    package let redirectURI: String
    private let channel: any Channel
    private let outcome: RedirectOutcome

    private init(channel: any Channel, redirectURI: String, outcome: RedirectOutcome) {
        self.channel = channel
        self.redirectURI = redirectURI
        self.outcome = outcome
    }

    /// Starts listening for the redirect that carries `state`.
    package static func start(state: String) async throws -> OAuth2RedirectListener {
        let group = MultiThreadedEventLoopGroup.singleton
        let outcome = RedirectOutcome(group.next().makePromise(of: Result<String, ProviderError>.self))
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(RedirectHandler(state: state, outcome: outcome))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw ProviderError(.network, "could not listen on 127.0.0.1 for the sign-in's redirect")
        }
        return OAuth2RedirectListener(channel: channel, redirectURI: "http://127.0.0.1:\(port)/callback", outcome: outcome)
    }

    /// The authorization code, once the browser brings it, or within `timeout`.
    ///
    /// - Throws: `unauthorized` with the server's `error` when the user or server refused;
    ///   `cancelled` when nothing came within `timeout`.
    package func code(timeout: Duration) async throws -> String {
        let outcome = outcome
        let timer = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000)) {
            outcome.settle(.failure(ProviderError(.cancelled, "no sign-in came back from the browser within \(timeout)")))
        }
        defer { timer.cancel() }
        let result = try await withTaskCancellationHandler {
            try await outcome.promise.futureResult.get()
        } onCancel: {
            outcome.settle(.failure(ProviderError(.cancelled, "the sign-in was cancelled")))
        }
        return try result.get()
    }

    /// Stops listening.
    package func close() async {
        outcome.settle(.failure(ProviderError(.cancelled, "the sign-in was cancelled")))
        try? await channel.close()
    }
}

/// Answers the redirect: the first request with the right `state` settles the outcome.
private final class RedirectHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: String
    private let outcome: RedirectOutcome
    private var head: HTTPRequestHead?

    init(state: String, outcome: RedirectOutcome) {
        self.state = state
        self.outcome = outcome
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(context: context, to: head)
        }
    }

    private func respond(context: ChannelHandlerContext, to head: HTTPRequestHead) {
        let components = URLComponents(string: "http://127.0.0.1" + head.uri)
        let query = Dictionary((components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        let status: HTTPResponseStatus
        let page: String
        if head.method != .GET || components?.path != "/callback" || query["state"] != state {
            status = .badRequest
            page = "This is not the sign-in Strata is waiting for."
        } else if let code = query["code"], !code.isEmpty {
            status = .ok
            page = "Signed in. You can close this window and go back to Strata."
            outcome.settle(.success(code))
        } else {
            status = .ok
            let reason = [query["error"], query["error_description"]].compactMap { $0 }.joined(separator: ": ")
            page = "The sign-in did not succeed (\(Self.escaped(reason))). You can close this window."
            outcome.settle(.failure(ProviderError(.unauthorized, "the authorization server refused the sign-in: \(Redactor.redact(reason))")))
        }
        let html = "<!doctype html><meta charset=\"utf-8\"><title>Strata</title><p>\(page)</p>"
        var headers = HTTPHeaders([("Content-Type", "text/html; charset=utf-8"), ("Connection", "close")])
        headers.add(name: "Content-Length", value: String(html.utf8.count))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: html)))), promise: nil)
        let closed = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: closed)
        let channel = context.channel
        closed.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// The one outcome of a redirect listener: the first to settle it wins.
private final class RedirectOutcome: Sendable {
    let promise: EventLoopPromise<Result<String, ProviderError>>
    private let settled = NIOLockedValueBox(false)

    init(_ promise: EventLoopPromise<Result<String, ProviderError>>) { self.promise = promise }

    func settle(_ result: Result<String, ProviderError>) {
        let first = settled.withLockedValue { done in
            defer { done = true }
            return !done
        }
        if first { promise.succeed(result) }
    }
}

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The default ``HTTPTransport``, built on AsyncHTTPClient: streaming bodies both
/// ways with back-pressure, a pooled connection per host, TLS verification on.
///
/// Redirects are never followed here; ``RequestExecutor`` follows them so that
/// credentials never travel to another host.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// Timeouts and pool sizes.
    public struct Configuration: Sendable {
        /// How long to wait for a connection.
        public var connectTimeout: Duration = .seconds(15)
        /// How long a response may stay silent before it fails.
        public var readTimeout: Duration = .seconds(120)
        /// Connections kept per host.
        public var maxConnectionsPerHost: Int = 8
        /// How long an idle connection stays open.
        public var idleTimeout: Duration = .seconds(60)
        /// Creates the default configuration.
        public init() {}
    }

    private let client: HTTPClient
    /// The client's event loops, which paced upload bodies wait for (see ``CountingStream``).
    private let eventLoops: [any EventLoop]
    private let ownsClient: Bool
    private let configuration: Configuration

    /// A transport with its own client; call ``shutdown()`` when done.
    public init(configuration: Configuration = Configuration()) {
        var config = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .nanoseconds(configuration.connectTimeout.nanosecondsClamped),
                read: .nanoseconds(configuration.readTimeout.nanosecondsClamped)),
            connectionPool: .init(
                idleTimeout: .nanoseconds(configuration.idleTimeout.nanosecondsClamped),
                concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.maxConnectionsPerHost),
            decompression: .disabled)
        config.httpVersion = .automatic
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
        self.eventLoops = Array(client.eventLoopGroup.makeIterator())
        self.ownsClient = true
        self.configuration = configuration
    }

    /// A transport over a client the caller owns (its redirect setting should be `.disallow`).
    public init(client: HTTPClient, configuration: Configuration = Configuration()) {
        self.client = client
        self.eventLoops = Array(client.eventLoopGroup.makeIterator())
        self.ownsClient = false
        self.configuration = configuration
    }

    /// A process-wide shared transport.
    public static let shared = AsyncHTTPClientTransport()

    /// Shuts the client down if this transport created it.
    public func shutdown() async throws {
        if ownsClient, self !== AsyncHTTPClientTransport.shared { try await client.shutdown() }
    }

    /// Bodies up to this size, from a file or memory, are read at once and sent as one buffer.
    static let wholeBodyLimit: Int64 = 256 << 10

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = request.method
        outgoing.headers = request.headers
        if let body = request.body {
            switch body {
            case .bytes(let buffer):
                outgoing.body = .bytes(buffer)
            case .source(let source):
                if let length = source.length, length <= Self.wholeBodyLimit, let whole = source as? any WholeBodySource {
                    // A small body goes as one buffer: no body task, no hand-off per piece.
                    outgoing.body = .bytes(try whole.wholeBody())
                    request.uploadProgress?(TransferProgress(completed: length, expected: length))
                    break
                }
                let stream = try source.makeStream()
                let counted = CountingStream(
                    base: stream, expected: source.length, progress: request.uploadProgress,
                    loops: eventLoops)
                if let length = source.length {
                    outgoing.body = .stream(counted, length: .known(length))
                } else {
                    outgoing.body = .stream(counted, length: .unknown)
                }
            }
        }
        let timeout: TimeAmount = .nanoseconds((request.deadline ?? .seconds(365 * 86400)).nanosecondsClamped)
        do {
            let response = try await client.execute(outgoing, timeout: timeout)
            let body = response.body
            return HTTPResponse(
                status: Int(response.status.code), headers: response.headers, url: request.url,
                body: HTTPResponseBody(MappedBody(base: body, request: request.summary)))
        } catch {
            throw AsyncHTTPClientTransport.map(error, request: request.summary)
        }
    }

    static func map(_ error: any Error, request: String) -> ProviderError {
        if let providerError = error as? ProviderError { return providerError }
        if error is CancellationError { return ProviderError(.cancelled, "cancelled", request: request) }
        if let clientError = error as? HTTPClientError {
            if clientError == .cancelled { return ProviderError(.cancelled, "cancelled", request: request) }
            let description = String(describing: clientError)
            let message: String
            if clientError == .readTimeout || clientError == .deadlineExceeded || clientError == .connectTimeout {
                message = "timed out"
            } else if clientError == .remoteConnectionClosed {
                message = "the server closed the connection"
            } else {
                message = "HTTP client error"
            }
            return ProviderError(.network, message, request: request, underlying: Redactor.redact(description))
        }
        return ProviderError(.network, "connection failed", request: request, underlying: Redactor.redact(String(describing: error)))
    }
}

/// Maps body errors to ``ProviderError``.
private struct MappedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let base: HTTPClientResponse.Body
    let request: String

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPClientResponse.Body.AsyncIterator
        let request: String
        mutating func next() async throws -> ByteBuffer? {
            do { return try await base.next() } catch { throw AsyncHTTPClientTransport.map(error, request: request) }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), request: request) }
}

/// Reports upload progress as the transport pulls pieces of the body, and keeps the pieces in
/// flight few.
///
/// AsyncHTTPClient pulls the next piece as soon as it has handed the last one to the event
/// loop, and pauses only once the event loop has written enough to make the channel
/// unwritable. A file read from the page cache outruns the socket, so under load hundreds of
/// pieces queued up on the event loop (a 1 GiB upload peaked at 80-270 MiB). Every
/// ``window`` pieces the iterator now waits for the event loops to run what was queued before
/// it, so AsyncHTTPClient has seen the channel's writability before it asks for more: at most
/// about `window` pieces wait on the event loop, plus what the channel buffers.
struct CountingStream: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let base: UploadStream
    let expected: Int64?
    let progress: ProgressHandler?
    /// The client's event loops (the connection runs on one of them).
    let loops: [any EventLoop]
    /// Pieces handed out between two waits for the event loops.
    var window = 4

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: UploadStream.AsyncIterator
        let expected: Int64?
        let progress: ProgressHandler?
        let loops: [any EventLoop]
        let window: Int
        var sent: Int64 = 0
        var pieces = 0
        mutating func next() async throws -> ByteBuffer? {
            try Task.checkCancellation()
            if pieces > 0, pieces % window == 0 {
                for loop in loops { try await EventLoopHop.drain(loop) }
            }
            guard let piece = try await base.next() else { return nil }
            pieces += 1
            sent += Int64(piece.readableBytes)
            if let expected, sent > expected {
                throw ProviderError(.invalidArgument, "upload source produced more than its declared \(expected) bytes")
            }
            progress?(TransferProgress(completed: sent, expected: expected))
            return piece
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            base: base.makeAsyncIterator(), expected: expected, progress: progress, loops: loops, window: Swift.max(1, window))
    }
}

extension Duration {
    /// The duration in nanoseconds, clamped to `Int64`.
    var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        if seconds > Int64.max / 1_000_000_000 - 1 { return Int64.max }
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

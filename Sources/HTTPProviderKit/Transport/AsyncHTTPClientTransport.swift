import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ProviderAPI
import Tracing

/// The default ``HTTPTransport``, built on AsyncHTTPClient: streaming bodies both
/// ways with back-pressure, a pooled connection per host, TLS verification on.
///
/// Redirects are never followed here; ``RequestExecutor`` follows them so that
/// credentials never travel to another host.
///
/// A request's own ``TransportRequest/timeouts`` (a provider's `ProviderConfiguration.timeouts`)
/// win over the ``Configuration``: its minimum speed is checked on its body, and a request with
/// other connect or read timeouts goes through a second client of this transport made with them
/// (one per pair of values, on the same event loops, shut down with the transport).
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// Deadlines and pool sizes.
    ///
    /// The defaults are those of the `strata` command line: 10 s to connect, 30 s without a
    /// byte, and at least 1024 bytes/s over any minute.
    public struct Configuration: Sendable {
        /// The longest a connection (TCP and TLS) may take, per attempt.
        public var connectTimeout: Duration = .seconds(10)
        /// The longest a response may send no byte at all, head or body; it then fails with
        /// `ProviderError.Code.network` "no data for 30 s".
        public var readTimeout: Duration = .seconds(30)
        /// The slowest a download or upload body may move; `nil` for no limit.
        ///
        /// An upload is watched while it waits for the server to take more; a download is checked
        /// as each piece arrives, and one that stops altogether is ended by ``readTimeout``.
        public var minimumSpeed: MinimumSpeed? = .standard
        /// Connections kept per host.
        public var maxConnectionsPerHost: Int = 8
        /// How long an idle connection stays open: 4 s by default, below the 5 s after which Apache
        /// (`KeepAliveTimeout`) and lighttpd (`server.max-keep-alive-idle`) close an idle connection
        /// by default. A connection the server closes while a request is being written on it fails
        /// that request, and only idempotent requests may be sent again; a pool that lets its
        /// connections go first never races the server's close (a MKCOL to lighttpd failed so).
        public var idleTimeout: Duration = .seconds(4)
        /// Whether HTTP/2 is offered to servers over TLS (ALPN), as it is by default: several
        /// requests then share one connection. `false` keeps every connection on HTTP/1.1, for a
        /// proxy or server whose HTTP/2 is broken. Plain `http` is always HTTP/1.1.
        public var allowsHTTP2 = true
        /// The PEM files whose certificates are trusted besides the system's
        /// (``trustCertificates(inPEMFile:)`` adds one): a server whose certificate an authority of
        /// its own signed, such as a company's or a test one. Certificates are still verified, and
        /// the host name checked, against these as against the system's.
        package private(set) var additionalTrustRootFiles: [URL] = []
        /// The certificates of ``additionalTrustRootFiles``, read when each was added.
        fileprivate var additionalTrustRoots: [NIOSSLCertificate] = []

        /// Creates the default configuration.
        public init() {}

        /// Trusts the certificates in the PEM file at `url` besides the system's, for every
        /// connection of a transport made with this configuration.
        ///
        /// The file is read now, so that a wrong one is found before any request.
        ///
        /// - Throws: `ProviderError.Code.invalidArgument` when the file cannot be read or holds no
        ///   PEM certificate.
        public mutating func trustCertificates(inPEMFile url: URL) throws {
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(url.path)
            } catch {
                throw ProviderError(
                    .invalidArgument, "\(url.path) is not a readable file of PEM certificates (\(String(describing: error)))")
            }
            guard !certificates.isEmpty else {
                throw ProviderError(.invalidArgument, "\(url.path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
            }
            additionalTrustRoots += certificates
            additionalTrustRootFiles.append(url)
        }

        /// This configuration with the timeouts `timeouts` sets: its connect and read timeouts, and
        /// its minimum speed (`MinimumSpeed.off` for none).
        package func applying(_ timeouts: Timeouts) -> Configuration {
            var configuration = self
            if let connect = timeouts.connect { configuration.connectTimeout = connect }
            if let read = timeouts.read { configuration.readTimeout = read }
            if let speed = timeouts.minimumSpeed { configuration.minimumSpeed = speed.isEnabled ? speed : nil }
            return configuration
        }
    }

    /// The connect and read timeouts of a client.
    private struct ClientTimeouts: Hashable {
        var connect: Duration
        var read: Duration

        init(_ configuration: Configuration) {
            connect = configuration.connectTimeout
            read = configuration.readTimeout
        }
    }

    private let client: HTTPClient
    /// The client's event loops, which paced upload bodies wait for (see ``CountingStream``).
    private let eventLoops: [any EventLoop]
    private let ownsClient: Bool
    private let configuration: Configuration
    /// Clients made for requests whose connect or read timeouts differ from ``configuration``'s.
    private let otherClients = NIOLockedValueBox<[ClientTimeouts: HTTPClient]>([:])

    /// A transport with its own client; call ``shutdown()`` when done.
    public init(configuration: Configuration = Configuration()) {
        self.client = Self.makeClient(configuration)
        self.eventLoops = Array(client.eventLoopGroup.makeIterator())
        self.ownsClient = true
        self.configuration = configuration
    }

    /// A client with `configuration`'s timeouts and pool, following no redirect.
    private static func makeClient(_ configuration: Configuration) -> HTTPClient {
        var config = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .nanoseconds(configuration.connectTimeout.nanosecondsClamped),
                read: .nanoseconds(configuration.readTimeout.nanosecondsClamped)),
            connectionPool: .init(
                idleTimeout: .nanoseconds(configuration.idleTimeout.nanosecondsClamped),
                concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.maxConnectionsPerHost),
            decompression: .disabled)
        config.httpVersion = configuration.allowsHTTP2 ? .automatic : .http1Only
        if !configuration.additionalTrustRoots.isEmpty {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates(configuration.additionalTrustRoots)]
            config.tlsConfiguration = tls
        }
        // A failed connection fails its request at once, instead of being tried again and again
        // until the connect timeout: RequestExecutor decides on retries (a refused connection once,
        // a host that cannot be resolved never).
        config.connectionPool.retryConnectionEstablishment = false
        // With no tracer bootstrapped (InstrumentationSystem's no-op one), no span per request: the
        // client keeps the tracer it finds now, and made and ended a no-op span around every request
        // (2.2 % of the samples of 1,000 small uploads). A bootstrapped tracer is kept, as before.
        if config.tracing.tracer is NoOpTracer { config.tracing.tracer = nil }
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
    }

    /// Whether the transport's own client makes a tracing span per request: only when a tracer was
    /// bootstrapped (`InstrumentationSystem`) before the transport was made.
    package var tracesRequests: Bool { client.tracer != nil }

    /// The client for requests with `effective`'s connect and read timeouts: this transport's own,
    /// or one made for them (a client the caller owns is always used as it is).
    private func client(for effective: Configuration) -> HTTPClient {
        let key = ClientTimeouts(effective)
        guard ownsClient, key != ClientTimeouts(configuration) else { return client }
        return otherClients.withLockedValue { clients in
            if let made = clients[key] { return made }
            var settings = configuration
            settings.connectTimeout = key.connect
            settings.readTimeout = key.read
            let made = Self.makeClient(settings)
            clients[key] = made
            return made
        }
    }

    /// A transport over a client the caller owns (its redirect setting should be `.disallow`, and
    /// its `connectionPool.retryConnectionEstablishment` `false` for connection failures to fail fast).
    ///
    /// The client's own timeouts apply, whatever a request's ``TransportRequest/timeouts`` say;
    /// `configuration` (or a request's timeouts) gives the minimum speed and the numbers in messages.
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
        guard ownsClient, self !== AsyncHTTPClientTransport.shared else { return }
        let others = otherClients.withLockedValue { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
        for other in others { try await other.shutdown() }
        try await client.shutdown()
    }

    /// Bodies up to this size, from a file or memory, are read at once and sent as one buffer.
    static let wholeBodyLimit: Int64 = 256 << 10

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        // A last check: NIO's SocketAddress traps on a port above 65535.
        guard URLChecks.isValidHTTPURL(request.url) else {
            throw ProviderError(.invalidArgument, "not a valid http or https URL: \(Redactor.redact(url: request.url))", request: request.summary)
        }
        let configuration = self.configuration.applying(request.timeouts)
        let client = self.client(for: configuration)
        let speed = configuration.minimumSpeed.flatMap { $0.isEnabled ? $0 : nil }
        let summary = RequestSummary(request)
        var resent = false
        while true {
            do {
                return try await send(request, on: client, configuration: configuration, speed: speed, summary: summary)
            } catch let failure as ExchangeFailure {
                // A pooled connection the server closed without saying so (chezdav after a DELETE):
                // sent once more, on another connection, when that is safe (`mayResend`).
                guard !resent, Self.mayResend(request, after: failure.error) else {
                    throw AsyncHTTPClientTransport.map(failure.error, request: request.summary, configuration: configuration)
                }
                resent = true
            }
        }
    }

    /// Methods whose request, sent twice, does what it does once or fails as a taken name does,
    /// losing nothing, besides those that ``TransportRequest/isIdempotent`` names: MOVE and COPY
    /// onto a name, and MKCOL (a second one over the folder the first made answers 405, RFC 4918
    /// 9.3.1). AsyncHTTPClient reports a connection found closed when the request was handed to it
    /// and one closed under the request alike (`remoteConnectionClosed`), so "never written" cannot
    /// be told from it: chezdav's close after a DELETE failed the next MKCOL so.
    static let resendableMethods: Set<String> = ["MOVE", "COPY", "MKCOL"]

    /// Whether `request`, failed with `error` before any byte of an answer, may be sent again on a
    /// new connection: only when `error` says the connection was closed under it (by the server,
    /// unannounced: a reset, a close before any answer, a write on a closed channel) and its body
    /// can be sent again (a streamed body that cannot be replayed never is); then always when the
    /// request was never written (a write on an already closed channel), else only for an
    /// idempotent method, MOVE, COPY or MKCOL (``resendableMethods``).
    static func mayResend(_ request: TransportRequest, after error: any Error) -> Bool {
        guard request.body?.isReplayable ?? true else { return false }
        switch ClosedConnection(error) {
        case nil: return false
        case .neverWritten?: return true
        case .closedUnderRequest?: return request.isIdempotent || resendableMethods.contains(request.method.rawValue)
        }
    }

    /// How a connection was found closed.
    enum ClosedConnection {
        /// The request was written to a channel already closed: the server saw none of it.
        case neverWritten
        /// The connection was closed or reset while the request was on it, before any answer.
        case closedUnderRequest

        init?(_ error: any Error) {
            if let channel = error as? ChannelError {
                switch channel {
                case .ioOnClosedChannel, .outputClosed, .alreadyClosed: self = .neverWritten
                case .eof: self = .closedUnderRequest
                default: return nil
                }
            } else if let client = error as? HTTPClientError, client == .remoteConnectionClosed {
                self = .closedUnderRequest
            } else if let client = error as? HTTPClientError, client == .cancelled, !Task.isCancelled {
                // No one cancelled: AsyncHTTPClient handed the request to an HTTP/2 connection that
                // began to close meanwhile (the server's GOAWAY, which nginx sends after 1,000
                // requests on a connection) and failed it as `cancelled` before writing it.
                self = .neverWritten
            } else if let io = error as? IOError, [ECONNRESET, EPIPE].contains(io.errnoCode) {
                self = .closedUnderRequest
            } else {
                return nil
            }
        }
    }

    /// An error of the exchange itself (not of making the body), which ``send(_:)`` maps.
    private struct ExchangeFailure: Error {
        let error: any Error
    }

    /// One exchange of ``send(_:)``; the exchange's errors are thrown as ``ExchangeFailure``.
    private func send(
        _ request: TransportRequest, on client: HTTPClient, configuration: Configuration, speed: MinimumSpeed?,
        summary: RequestSummary
    ) async throws -> TransportResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = request.method
        outgoing.headers = request.headers
        var uploadMonitor: SpeedMonitor?
        if let body = request.body {
            switch body {
            case .bytes(let buffer):
                outgoing.body = .bytes(buffer)
            case .source(let source):
                if let length = source.length, length <= Self.wholeBodyLimit, let whole = source as? any WholeBodySource {
                    // A small body goes as one buffer: no body task, no hand-off per piece.
                    outgoing.body = .bytes(try await whole.wholeBody())
                    request.uploadProgress?(TransferProgress(completed: length, expected: length))
                    break
                }
                let stream = try source.makeStream()
                uploadMonitor = speed.map { SpeedMonitor($0, request: summary) }
                let counted = CountingStream(
                    base: stream, expected: source.length, progress: request.uploadProgress,
                    loops: eventLoops, monitor: uploadMonitor)
                if let length = source.length {
                    outgoing.body = .stream(counted, length: .known(length))
                } else {
                    outgoing.body = .stream(counted, length: .unknown)
                }
            }
        }
        let timeout: TimeAmount = .nanoseconds((request.deadline ?? .seconds(365 * 86400)).nanosecondsClamped)
        // AsyncHTTPClient's deadline ends the wait for the head; the body checks it itself.
        let deadline = request.deadline.map { ContinuousClock.now + $0 }
        let response: HTTPClientResponse
        do {
            if let uploadMonitor {
                response = try await execute(outgoing, on: client, timeout: timeout, logger: request.logger, watchedBy: uploadMonitor)
            } else {
                response = try await client.execute(outgoing, timeout: timeout, logger: request.logger)
            }
        } catch {
            throw ExchangeFailure(error: error)
        }
        let body = response.body
        return TransportResponse(
            status: Int(response.status.code), headers: response.headers, url: request.url,
            body: HTTPResponseBody(
                MappedBody(
                    base: body, request: summary, configuration: configuration,
                    monitor: speed.map { SpeedMonitor($0, request: summary) }, deadline: deadline)))
    }

    /// Runs the request while a watchdog checks the upload's speed: a server that stops reading
    /// leaves the body's stream waiting, with no byte to check the speed on.
    private func execute(
        _ outgoing: HTTPClientRequest, on client: HTTPClient, timeout: TimeAmount, logger: Logger?, watchedBy monitor: SpeedMonitor
    ) async throws -> HTTPClientResponse {
        return try await withThrowingTaskGroup(of: HTTPClientResponse?.self) { group in
            group.addTask { try await client.execute(outgoing, timeout: timeout, logger: logger) }
            group.addTask {
                try await monitor.watch()
                return nil
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            throw ProviderError(.network, "the request ended without a response")
        }
    }

    static func map(_ error: any Error, request: String, configuration: Configuration = Configuration()) -> ProviderError {
        if let providerError = error as? ProviderError { return providerError }
        if error is CancellationError { return ProviderError(.cancelled, "cancelled", request: request) }
        let underlying = Redactor.redact(String(describing: error))
        if let clientError = error as? HTTPClientError {
            if clientError == .cancelled {
                if Task.isCancelled { return ProviderError(.cancelled, "cancelled", request: request) }
                // Not the caller's cancellation: the connection closed before the request was sent.
                return ProviderError(
                    .network, "the connection was closing before the request was sent (the server ended it)", request: request,
                    underlying: underlying)
            }
            let message: String
            if clientError == .readTimeout {
                message = NetworkFailure.silentMessage(configuration.readTimeout)
            } else if clientError == .connectTimeout {
                message = "no connection within \(configuration.connectTimeout.spokenLength)"
            } else if clientError == .deadlineExceeded {
                message = "timed out"
            } else if clientError == .remoteConnectionClosed {
                message = "the server closed the connection"
            } else {
                message = "HTTP client error"
            }
            return ProviderError(.network, message, request: request, underlying: underlying)
        }
        if let tls = error as? NIOSSLError {
            let reason: String
            switch tls {
            case .handshakeFailed: reason = "the server's certificate or TLS answer was refused"
            case .unableToValidateCertificate: reason = "the server's certificate could not be verified"
            default: reason = "\(tls)".split(separator: "(").first.map(String.init) ?? "error"
            }
            return ProviderError(
                .network, NetworkFailure.tlsMessage(reason), request: request,
                underlying: NetworkFailure.withoutSourcePaths(underlying))
        }
        if let tls = error as? NIOSSLExtraError {
            let reason = tls == .failedToValidateHostname ? "the certificate is for another host name" : "the TLS set-up was refused"
            return ProviderError(
                .network, NetworkFailure.tlsMessage(reason), request: request,
                underlying: NetworkFailure.withoutSourcePaths(underlying))
        }
        if let parserError = error as? HTTPParserError, parserError != .invalidEOFState, parserError != .closedConnection {
            // Not HTTP (a head that never ends, a broken status line or chunk): the server's fault,
            // and sending the request again would get the same. A connection closed mid-message
            // is a cut (`network`), as before.
            return ProviderError(.invalidResponse, "the server sent a malformed HTTP response", request: request, underlying: underlying)
        }
        if let connectionError = error as? NIOConnectionError {
            if connectionError.dnsAError != nil || connectionError.dnsAAAAError != nil, connectionError.connectionErrors.isEmpty {
                return ProviderError(
                    .network, NetworkFailure.unresolvedMessage(host: connectionError.host), request: request, underlying: underlying)
            }
            let refused = !connectionError.connectionErrors.isEmpty && connectionError.connectionErrors.allSatisfy {
                ($0.error as? IOError)?.errnoCode == ECONNREFUSED
            }
            if refused { return ProviderError(.network, NetworkFailure.refusedMessage, request: request, underlying: underlying) }
        }
        if let unknown = error as? SocketAddressError.UnknownHost {
            return ProviderError(.network, NetworkFailure.unresolvedMessage(host: unknown.host), request: request, underlying: underlying)
        }
        if let ioError = error as? IOError, ioError.errnoCode == ECONNREFUSED {
            return ProviderError(.network, NetworkFailure.refusedMessage, request: request, underlying: underlying)
        }
        if case ChannelError.connectTimeout = error {
            return ProviderError(
                .network, "no connection within \(configuration.connectTimeout.spokenLength)", request: request, underlying: underlying)
        }
        return ProviderError(.network, "connection failed", request: request, underlying: underlying)
    }
}

/// Maps body errors to ``ProviderError`` and checks the body's speed and the request's deadline.
///
/// The deadline is checked as each piece arrives: a body that stops altogether is ended by the
/// read timeout, so it can overrun the deadline by that much at most.
private struct MappedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let base: HTTPClientResponse.Body
    let request: RequestSummary
    let configuration: AsyncHTTPClientTransport.Configuration
    let monitor: SpeedMonitor?
    let deadline: ContinuousClock.Instant?

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPClientResponse.Body.AsyncIterator
        let request: RequestSummary
        let configuration: AsyncHTTPClientTransport.Configuration
        let monitor: SpeedMonitor?
        let deadline: ContinuousClock.Instant?
        mutating func next() async throws -> ByteBuffer? {
            if let deadline, ContinuousClock.now >= deadline { throw ProviderError(.network, "timed out", request: request.text) }
            monitor?.start()
            let piece: ByteBuffer?
            do {
                piece = try await base.next()
            } catch {
                throw AsyncHTTPClientTransport.map(error, request: request.text, configuration: configuration)
            }
            guard let piece else {
                monitor?.finish()
                return nil
            }
            try monitor?.record(piece.readableBytes)
            return piece
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            base: base.makeAsyncIterator(), request: request, configuration: configuration, monitor: monitor, deadline: deadline)
    }
}

/// Reports upload progress as the transport pulls pieces of the body, checks its speed, and keeps
/// the pieces in flight few.
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
    /// Checks the upload's speed, if it has a minimum.
    var monitor: SpeedMonitor? = nil
    /// Pieces handed out between two waits for the event loops.
    var window = 4

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: UploadStream.AsyncIterator
        let expected: Int64?
        let progress: ProgressHandler?
        let loops: [any EventLoop]
        let monitor: SpeedMonitor?
        let window: Int
        var sent: Int64 = 0
        var pieces = 0
        mutating func next() async throws -> ByteBuffer? {
            try Task.checkCancellation()
            monitor?.start()
            if pieces > 0, pieces % window == 0 {
                for loop in loops { try await EventLoopHop.drain(loop) }
            }
            guard let piece = try await base.next() else {
                monitor?.finish()
                return nil
            }
            pieces += 1
            sent += Int64(piece.readableBytes)
            if let expected, sent > expected {
                throw ProviderError(.invalidArgument, "upload source produced more than its declared \(expected) bytes")
            }
            try monitor?.record(piece.readableBytes)
            progress?(TransferProgress(completed: sent, expected: expected))
            return piece
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            base: base.makeAsyncIterator(), expected: expected, progress: progress, loops: loops, monitor: monitor,
            window: Swift.max(1, window))
    }
}

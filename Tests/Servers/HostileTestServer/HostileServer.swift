import Foundation
import LoopbackServerKit
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A loopback HTTP server that misbehaves on purpose, to prove that Strata keeps working, fails
/// fast and loses nothing against broken and hostile servers (issue 13).
///
/// It is built on SwiftNIO directly: requests are parsed by `NIOHTTP1`, but answers are raw
/// bytes (``HostileResponse``), so it can send what a correct framework would refuse. Each test
/// starts one with a ``HostileScenario``, bound to 127.0.0.1 on a free port, points the real
/// SDK or the `strata` binary at ``url``, and asserts the outcome and what reached the server
/// (``requests``). Every misbehaviour stops by itself: after ``timeLimit`` (60 s by default),
/// when the client goes away, or at ``stop()``.
///
/// ## Scenarios, by class of the issue
/// - Crash: ``HostileScenario/redirectToInvalidPort(_:)`` (a `Location` with port 99999),
///   ``HostileScenario/pydioModifiedTime(_:)`` (`ajxp_modiftime="inf"`, `nan`, `1e300`),
///   ``HostileScenario/webdavProperties(size:modified:)`` and ``HostileScenario/nuxeoProperties(length:modified:)``
///   (sizes that are negative, signed or past `Int64`; years 0, 10000, 99999).
/// - Deadline: ``HostileScenario/stallBeforeHead`` (accepts, reads, never answers),
///   ``HostileScenario/stallAfterHead`` (a head, then silence),
///   ``HostileScenario/trickle(interval:)`` (one byte per interval),
///   ``HostileScenario/endlessRedirectBody`` (a 302 whose body never ends),
///   ``HostileScenario/chunkedNeverEnds``, ``HostileScenario/continueThenSilence``,
///   ``HostileScenario/silentAfterUpload``, ``HostileScenario/trickledHead(interval:)``.
/// - Loop: ``HostileScenario/nuxeoPages(_:)`` and ``HostileScenario/pydioPages(_:)``
///   (`isNextPageAvailable: true` / a `<pagination>` that never ends: the same page again, or
///   endless new entries), ``HostileScenario/webdavManyResponses(_:)`` (one multistatus of
///   more responses than the entries limit).
/// - Integrity: ``HostileScenario/cutWithLength``, ``HostileScenario/cutWithoutLength``,
///   ``HostileScenario/longerThanDeclared``, ``HostileScenario/pydioCutWithoutLength``,
///   ``HostileScenario/unaskedPartial``, ``HostileScenario/lyingContentRange``,
///   ``HostileScenario/webdavRangeFile(_:listedSize:)`` (true ranges, a listed size that may lie).
/// - Redirect: ``HostileScenario/redirect(to:status:)`` (anywhere, another origin included),
///   ``HostileScenario/pydioLoginRedirect(to:)`` (the login form answered by a 307 elsewhere),
///   ``HostileScenario/uploadRedirect(to:)`` (a `PUT` answered by a 307 elsewhere),
///   ``HostileScenario/redirectLater(to:)`` (two servers sending a request back and forth).
/// - Output: ``HostileScenario/webdavNames(_:)`` (names with ESC sequences and newlines),
///   ``HostileScenario/echoAuthorization`` (an error body quoting the `Authorization` header),
///   ``HostileScenario/invisibleNames`` (bidi overrides, zero-width, C1), errors with terminal
///   escapes: ``HostileScenario/controlsInErrorBody``, ``HostileScenario/echoingChallenge``,
///   ``HostileScenario/pydioEchoingError(_:)``, ``HostileScenario/nuxeoControlsInError``.
/// - Side files: ``HostileScenario/webdavFile(_:)`` (a well-behaved file, downloaded into a
///   folder where `NAME.strata-partial` is a symlink pointing outside, or a hard link),
///   ``HostileScenario/nuxeoTitles(_:)`` and ``HostileScenario/pydioNodePath(_:)`` (server names
///   that are no path segment: `a/b`, `..`, `.`).
/// - Parsing: ``HostileScenario/unterminatedComment(bytes:)`` (a multistatus that is a 40 MB
///   unterminated comment streamed in pieces), ``HostileScenario/hugeAttribute(bytes:)``,
///   ``HostileScenario/nuxeoEndlessJSON(_:)``, ``HostileScenario/endlessHead(lines:)``,
///   ``HostileScenario/webdavEncoding(utf16:)`` (a BOM, UTF-16).
///
/// ```swift
/// let server = try await HostileServer.start(scenario: .trickle(interval: .milliseconds(500)))
/// defer { Task { await server.stop() } }
/// // … point a provider at server.url …
/// #expect(server.requests.map(\.method) == ["OPTIONS", "PROPFIND", "GET"])
/// ```
public final class HostileServer: Sendable {
    /// `http://127.0.0.1:PORT/`.
    public let url: URL
    /// The bound port.
    public let port: Int
    /// The scenario it plays.
    public let scenario: HostileScenario
    /// How long any misbehaviour may last.
    public let timeLimit: Duration
    private let core: HostileServerCore
    private let channel: any Channel

    private init(url: URL, port: Int, scenario: HostileScenario, timeLimit: Duration, core: HostileServerCore, channel: any Channel) {
        self.url = url
        self.port = port
        self.scenario = scenario
        self.timeLimit = timeLimit
        self.core = core
        self.channel = channel
    }

    /// Binds 127.0.0.1 on a free port and plays `scenario` to every request.
    public static func start(scenario: HostileScenario, timeLimit: Duration = .seconds(240)) async throws -> HostileServer {
        let core = HostileServerCore(scenario: scenario, timeLimit: timeLimit)
        let channel = try await ServerBootstrap(group: LoopbackExecutor.shared.group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                    try child.pipeline.syncOperations.addHandler(HostileConnectionHandler(core: core))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port, let url = URL(string: "http://127.0.0.1:\(port)/") else {
            try? await channel.close()
            throw HostileServerError.notBound
        }
        core.bound(port: port, url: url)
        return HostileServer(url: url, port: port, scenario: scenario, timeLimit: timeLimit, core: core, channel: channel)
    }

    /// Every request received so far, in order of arrival.
    public var requests: [HostileRequest] { core.requests }

    /// The body bytes the server managed to write in answer to `request` (headers included).
    public func bytesSent(to request: HostileRequest) -> Int64 { core.bytesSent(to: request.index) }

    /// Waits until the server has stopped answering `request` (the answer played out, or the
    /// client left and the server noticed), so that ``bytesSent(to:)`` is final; `false` when
    /// `limit` passed first.
    public func answerEnded(_ request: HostileRequest, within limit: Duration = .seconds(120)) async -> Bool {
        await core.waitForEnd(request.index, within: limit)
    }

    /// Stops accepting, ends every answer in progress and closes every connection.
    public func stop() async {
        try? await channel.close()
        await core.stop()
    }
}

/// Why a ``HostileServer`` did not start.
public enum HostileServerError: Error {
    /// The socket has no local port.
    case notBound
}

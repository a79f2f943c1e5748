import Foundation
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import ProviderAPI
import Testing
@testable import HTTPProviderKit

/// A pooled connection the server closed without saying so (chezdav closes its connection after
/// answering a DELETE, with no `Connection: close`): the next request on it fails before any byte
/// of an answer. The transport sends it once more on a new connection when that is safe.
@Suite("Resending on a connection closed without a word", .timeLimit(.minutes(1)))
struct ClosedConnectionResendTests {
    /// Sends a DELETE (answered 204 on a connection the server then drops), then `second` on the
    /// kept connection; returns its status or error, and the server.
    private func afterQuietClose(_ second: @Sendable (QuietCloseServer) -> TransportRequest) async throws
        -> (Result<Int, ProviderError>, QuietCloseServer)
    {
        let server = try await QuietCloseServer.start()
        let transport = AsyncHTTPClientTransport()
        let result: Result<Int, ProviderError>
        do {
            let deleted = try await transport.send(TransportRequest(method: .DELETE, url: server.url("/gone")))
            _ = try await deleted.body.collect(upTo: 1 << 20)
            #expect(deleted.status == 204)
            do {
                let response = try await transport.send(second(server))
                _ = try await response.body.collect(upTo: 1 << 20)
                result = .success(response.status)
            } catch let error as ProviderError {
                result = .failure(error)
            }
        } catch {
            try? await transport.shutdown()
            try? await server.stop()
            throw error
        }
        try await transport.shutdown()
        try await server.stop()
        return (result, server)
    }

    @Test("an idempotent request, MOVE/COPY or MKCOL with a replayable body is sent again on a new connection", arguments: ["PUT", "MOVE", "PROPFIND", "MKCOL"])
    func idempotentIsResent(method: String) async throws {
        let (result, server) = try await afterQuietClose { server in
            TransportRequest(method: HTTPMethod(rawValue: method), url: server.url("/f.txt"), body: .bytes(ByteBuffer(string: "data")))
        }
        #expect(try result.get() == 201)
        #expect(server.accepted.withLockedValue { $0 } == 2)
        #expect(server.answered.withLockedValue { $0 } == ["DELETE /gone", "\(method) /f.txt"])
    }

    @Test("a POST that may have been written is not sent again: the error is the caller's")
    func nonIdempotentIsNotResent() async throws {
        let (result, server) = try await afterQuietClose { server in
            TransportRequest(method: .POST, url: server.url("/d/"), body: .bytes(ByteBuffer(string: "form")))
        }
        guard case .failure(let error) = result else {
            // The pool may have given the POST a fresh connection from the start (it saw the close
            // first, as on a busy machine), or it was never written to the closed one (a write on
            // a closed channel may be sent again): either way the server saw it once, never twice.
            #expect(server.answered.withLockedValue { $0 } == ["DELETE /gone", "POST /d/"], "\(result)")
            return
        }
        #expect(error.code == .network)
        #expect(server.answered.withLockedValue { $0 } == ["DELETE /gone"])
    }

    @Test("a streamed body that cannot be replayed is never sent again")
    func oneShotBodyIsNotResent() async throws {
        let (result, server) = try await afterQuietClose { server in
            let stream = AsyncStream<ByteBuffer> { continuation in
                continuation.yield(ByteBuffer(repeating: 0x61, count: 300 << 10))
                continuation.finish()
            }
            return TransportRequest(
                method: .PUT, url: server.url("/f.txt"), body: .source(AsyncSequenceSource(stream, length: 300 << 10)))
        }
        guard case .failure(let error) = result else {
            // The pool may have given the PUT a fresh connection from the start (it saw the close
            // first): then it was sent once, never again.
            #expect(server.answered.withLockedValue { $0 } == ["DELETE /gone", "PUT /f.txt"], "\(result)")
            return
        }
        #expect(error.code == .network)
        #expect(server.answered.withLockedValue { $0 } == ["DELETE /gone"])
    }

    @Test("which failures allow a resend: any method when the request was never written, else idempotent ones, MOVE/COPY and MKCOL")
    func resendRules() {
        let url = URL(string: "http://127.0.0.1:9/x")!
        let mkcol = TransportRequest(method: .MKCOL, url: url)
        let post = TransportRequest(method: .POST, url: url, body: .bytes(ByteBuffer(string: "a")))
        let put = TransportRequest(method: .PUT, url: url, body: .bytes(ByteBuffer(string: "a")))
        let copy = TransportRequest(method: HTTPMethod(rawValue: "COPY"), url: url)
        let stream = AsyncStream<ByteBuffer> { $0.finish() }
        let oneShot = TransportRequest(method: .PUT, url: url, body: .source(AsyncSequenceSource(stream)))
        #expect(AsyncHTTPClientTransport.mayResend(mkcol, after: ChannelError.ioOnClosedChannel))
        #expect(AsyncHTTPClientTransport.mayResend(post, after: ChannelError.ioOnClosedChannel))
        #expect(!AsyncHTTPClientTransport.mayResend(post, after: ChannelError.eof))
        #expect(!AsyncHTTPClientTransport.mayResend(post, after: IOError(errnoCode: ECONNRESET, reason: "read")))
        #expect(AsyncHTTPClientTransport.mayResend(mkcol, after: ChannelError.eof))
        #expect(AsyncHTTPClientTransport.mayResend(put, after: ChannelError.eof))
        #expect(AsyncHTTPClientTransport.mayResend(put, after: IOError(errnoCode: ECONNRESET, reason: "read")))
        #expect(AsyncHTTPClientTransport.mayResend(copy, after: IOError(errnoCode: EPIPE, reason: "write")))
        #expect(!AsyncHTTPClientTransport.mayResend(oneShot, after: ChannelError.ioOnClosedChannel))
        #expect(!AsyncHTTPClientTransport.mayResend(put, after: ChannelError.connectTimeout(.seconds(1))))
        #expect(!AsyncHTTPClientTransport.mayResend(put, after: IOError(errnoCode: ECONNREFUSED, reason: "connect")))
    }

    @Test("AsyncHTTPClient's cancelled without a cancelled task (an HTTP/2 connection closing under the request, after the server's GOAWAY) is a request never written: resent, and a network error, not cancelled")
    func http2ClosingIsNeverWritten() async {
        let url = URL(string: "https://127.0.0.1:9/x")!
        let post = TransportRequest(method: .POST, url: url, body: .bytes(ByteBuffer(string: "a")))
        #expect(AsyncHTTPClientTransport.mayResend(post, after: HTTPClientError.cancelled))
        #expect(AsyncHTTPClientTransport.map(HTTPClientError.cancelled, request: "POST /x").code == .network)
        // The caller's own cancellation stays a cancellation, and is never resent.
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return (
                AsyncHTTPClientTransport.mayResend(post, after: HTTPClientError.cancelled),
                AsyncHTTPClientTransport.map(HTTPClientError.cancelled, request: "POST /x").code
            )
        }
        let (resent, code) = await task.value
        #expect(!resent)
        #expect(code == .cancelled)
    }
}

import Foundation
import NIOCore
import ProviderAPI
import Testing
import HTTPProviderKit

/// A transport with short deadlines, so that a broken server fails a test in a second or two.
private func shortTransport(
    read: Duration = .seconds(1), speed: MinimumSpeed? = nil, connect: Duration = .seconds(2)
) -> AsyncHTTPClientTransport {
    var configuration = AsyncHTTPClientTransport.Configuration()
    configuration.connectTimeout = connect
    configuration.readTimeout = read
    configuration.minimumSpeed = speed
    return AsyncHTTPClientTransport(configuration: configuration)
}

/// Runs `body` with `transport`, then shuts the transport down whatever happened.
private func using<T: Sendable>(
    _ transport: AsyncHTTPClientTransport, _ body: (AsyncHTTPClientTransport) async throws -> T
) async throws -> T {
    do {
        let result = try await body(transport)
        try await transport.shutdown()
        return result
    } catch {
        try? await transport.shutdown()
        throw error
    }
}

/// Real sockets on 127.0.0.1: a server that never answers, one that trickles, one that stalls
/// mid-body, a refused port, a host that cannot resolve, a port out of range.
@Suite("Transport deadlines on loopback", .timeLimit(.minutes(1)))
struct TransportDeadlineTests {
    @Test("a server that accepts and never answers fails with 'no data for 1 s'")
    func silentServer() async throws {
        let server = try await LoopbackSocketServer.start(.silent)
        let error = try await using(shortTransport()) { transport in
            // The deadline is a backstop so a broken read timeout fails the test instead of hanging it.
            await #expect(throws: ProviderError.self) {
                try await transport.send(TransportRequest(method: .GET, url: server.url("/a"), deadline: .seconds(5)))
            }
        }
        #expect(error?.code == .network)
        #expect(error?.message == "no data for 1 s")
        try await server.stop()
    }

    @Test("https to a server that answers in plain HTTP: a TLS failure, without BoringSSL's source paths, sent once through the executor")
    func tlsToPlainServer() async throws {
        let server = try await LoopbackSocketServer.start(.stallAfter("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"))
        var components = try #require(URLComponents(url: server.url("/a"), resolvingAgainstBaseURL: false))
        components.scheme = "https"
        let secure = try #require(components.url)
        let error = try await using(shortTransport()) { transport in
            await #expect(throws: ProviderError.self) {
                try await RequestExecutor(transport: transport, retry: .standard, logger: quietLogger)
                    .execute(TransportRequest(method: .GET, url: secure, deadline: .seconds(5)))
            }
        }
        #expect(error?.code == .network)
        #expect(error?.message?.hasPrefix("TLS handshake failed") == true, "\(String(describing: error))")
        let underlying = error?.underlying ?? ""
        #expect(![".cc:", ".c:", "checkouts"].contains { underlying.contains($0) }, "\(underlying)")
        #expect(server.accepted.withLockedValue { $0 } == 1, "connections: \(server.accepted.withLockedValue { $0 })")
        try await server.stop()
    }

    @Test("a body that stops mid-way fails with 'no data for 1 s'")
    func stallMidBody() async throws {
        let server = try await LoopbackSocketServer.start(.stallAfter("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789"))
        let error = try await using(shortTransport()) { transport in
            // A deadline far past the 1 s of silence: under the whole suite's load a 5 s one ran
            // out first ("timed out"), and the deadline is not what this test is about.
            let response = try await transport.send(TransportRequest(method: .GET, url: server.url("/a"), deadline: .seconds(120)))
            #expect(response.status == 200)
            return await #expect(throws: ProviderError.self) { _ = try await response.body.collect(upTo: 10_000) }
        }
        #expect(error?.code == .network)
        #expect(error?.message == "no data for 1 s")
        try await server.stop()
    }

    @Test("a body that trickles one byte per 200 ms fails the minimum speed")
    func trickle() async throws {
        let server = try await LoopbackSocketServer.start(
            .trickle(head: "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n", piece: [0x61], interval: .milliseconds(200)))
        let speed = MinimumSpeed(bytesPerSecond: 100, window: .seconds(1))
        // The no-data timeout is far above the window: a trickle the loaded machine delays even
        // more is still slower than the minimum, and must be told as such, not as silence.
        let error = try await using(shortTransport(read: .seconds(30), speed: speed)) { transport in
            let response = try await transport.send(TransportRequest(method: .GET, url: server.url("/a"), deadline: .seconds(60)))
            return await #expect(throws: ProviderError.self) { _ = try await response.body.collect(upTo: 200_000) }
        }
        #expect(error?.code == .network)
        #expect(error?.message == "slower than 100 bytes/s for 1 s")
        try await server.stop()
    }

    @Test("an upload the server never reads fails the minimum speed")
    func stalledUpload() async throws {
        let server = try await LoopbackSocketServer.start(.neverRead)
        // Socket buffers take a few MiB before the upload stalls; 64 MiB a second is more than they hold.
        let speed = MinimumSpeed(bytesPerSecond: 64 << 20, window: .seconds(1))
        let piece = ByteBuffer(repeating: 0x62, count: 64 << 10)
        let source = AsyncSequenceSource(UploadStream(next: { piece }))
        let error = try await using(shortTransport(read: .seconds(30), speed: speed)) { transport in
            await #expect(throws: ProviderError.self) {
                _ = try await transport.send(
                    TransportRequest(method: .PUT, url: server.url("/up"), body: .source(source), deadline: .seconds(10)))
            }
        }
        #expect(error?.code == .network)
        #expect(error?.message == "slower than 67108864 bytes/s for 1 s")
        try await server.stop()
    }

    @Test("a refused port fails as 'connection refused' after one retry at most")
    func refusedPort() async throws {
        let port = try await LoopbackSocketServer.closedPort()
        let notices = Collector<RetryNotice>()
        let error = try await using(AsyncHTTPClientTransport()) { transport in
            let executor = RequestExecutor(transport: transport, logger: quietLogger, onRetry: { notices.append($0) })
            return await #expect(throws: ProviderError.self) {
                try await executor.execute(TransportRequest(method: .GET, url: url("http://127.0.0.1:\(port)/a")))
            }
        }
        #expect(error?.code == .network)
        #expect(error?.message == "connection refused")
        #expect(notices.values.count <= 1)
        #expect(notices.values.allSatisfy { $0.reason == "connection refused" })
    }

    @Test("a host name that cannot resolve is not retried")
    func unresolvableHost() async throws {
        let notices = Collector<RetryNotice>()
        let error = try await using(AsyncHTTPClientTransport()) { transport in
            let executor = RequestExecutor(transport: transport, logger: quietLogger, onRetry: { notices.append($0) })
            return await #expect(throws: ProviderError.self) {
                try await executor.execute(TransportRequest(method: .GET, url: url("http://strata-test.invalid/a")))
            }
        }
        #expect(error?.code == .network)
        #expect(error?.message == "cannot resolve host strata-test.invalid")
        #expect(notices.values.isEmpty)
    }

    @Test("a URL with port 70000 is invalidArgument, not a trap", arguments: [
        "http://127.0.0.1:70000/a", "http://127.0.0.1:0/a", "http://127.0.0.1:99999999999999999999999/a",
    ])
    func portOutOfRange(_ text: String) async throws {
        let error = try await using(AsyncHTTPClientTransport()) { transport in
            await #expect(throws: ProviderError.self) {
                try await transport.send(TransportRequest(method: .GET, url: url(text)))
            }
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test("a redirect whose body never ends is dropped, not read to its end")
    func endlessRedirectBody() async throws {
        let server = try await LoopbackSocketServer.start(
            .trickle(
                head: "HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nTransfer-Encoding: chunked\r\n\r\n",
                piece: Array("1\r\nx\r\n".utf8), interval: .milliseconds(20)))
        let error = try await using(shortTransport(read: .seconds(30))) { transport in
            let executor = RequestExecutor(transport: transport, retry: .none, maxRedirects: 0, logger: quietLogger)
            return await #expect(throws: ProviderError.self) {
                try await executor.execute(TransportRequest(method: .GET, url: server.url("/a"), deadline: .seconds(20)))
            }
        }
        #expect(error?.message == "too many redirects")
        try await server.stop()
    }

    @Test("the request deadline still ends a request that a slow server keeps alive")
    func requestDeadline() async throws {
        let server = try await LoopbackSocketServer.start(
            .trickle(head: "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n", piece: [0x61], interval: .milliseconds(100)))
        let error = try await using(shortTransport(read: .seconds(30))) { transport in
            let response = try await transport.send(TransportRequest(method: .GET, url: server.url("/a"), deadline: .seconds(1)))
            return await #expect(throws: ProviderError.self) { _ = try await response.body.collect(upTo: 200_000) }
        }
        #expect(error?.code == .network)
        #expect(error?.message == "timed out")
        try await server.stop()
    }
}

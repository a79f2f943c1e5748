import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Wraps a transport and injects failures on demand, for tests of retries,
/// resume and error mapping against real servers.
public final class FaultInjectingTransport: HTTPTransport {
    /// One injected failure.
    public enum Fault: Sendable {
        /// Fail before sending, as a refused connection does.
        case connectionFailure
        /// Answer with this status (and `Retry-After` seconds, if given) without sending.
        case status(Int, retryAfter: Int?)
        /// Send the request, then cut the response body after this many bytes.
        ///
        /// A response that declares a `Content-Length` of at most this many bytes cannot be cut
        /// there, so it passes untouched and does not use the fault up: the fault waits for a body
        /// long enough, such as a download after an adapter's metadata lookups.
        case dropBody(after: Int64)
        /// Send the request, then deliver the body in pieces with this pause between them.
        case slowBody(pause: Duration)
    }

    /// Decides whether a request gets a fault.
    public typealias Rule = @Sendable (HTTPRequest) -> Fault?

    private let base: any HTTPTransport
    private struct State {
        var rules: [(remaining: Int, rule: Rule)] = []
        var sent: [String] = []
    }
    private let state = NIOLockedValueBox(State())

    /// Wraps `base`.
    public init(_ base: any HTTPTransport) { self.base = base }

    /// Injects faults chosen by `rule` for the next `count` requests it matches.
    public func inject(count: Int = 1, _ rule: @escaping Rule) {
        state.withLockedValue { $0.rules.append((count, rule)) }
    }

    /// Injects `fault` into the next `count` requests with `method`.
    public func inject(_ fault: Fault, method: String, count: Int = 1) {
        inject(count: count) { $0.method.rawValue == method ? fault : nil }
    }

    /// The summaries of the requests seen, faulted or not.
    public var requests: [String] { state.withLockedValue { $0.sent } }

    /// The fault for `request` and the index of the rule that chose it (rules are only ever appended).
    private func fault(for request: HTTPRequest) -> (fault: Fault, rule: Int)? {
        state.withLockedValue { state in
            state.sent.append(request.summary)
            for index in state.rules.indices where state.rules[index].remaining > 0 {
                if let fault = state.rules[index].rule(request) {
                    state.rules[index].remaining -= 1
                    return (fault, index)
                }
            }
            return nil
        }
    }

    /// Gives a rule back the use a request did not need.
    private func rearm(_ rule: Int) {
        state.withLockedValue { $0.rules[rule].remaining += 1 }
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let chosen = fault(for: request)
        switch chosen?.fault {
        case nil:
            return try await base.send(request)
        case .connectionFailure:
            throw ProviderError(.network, "injected connection failure", request: request.summary)
        case .status(let status, let retryAfter):
            var headers = HTTPHeaders()
            if let retryAfter { headers.add(name: "Retry-After", value: "\(retryAfter)") }
            headers.add(name: "Content-Length", value: "0")
            return HTTPResponse(status: status, headers: headers, url: request.url, body: .empty)
        case .dropBody(let limit):
            let response = try await base.send(request)
            if let length = response.contentLength, length <= limit, let rule = chosen?.rule {
                rearm(rule)
                return response
            }
            let cutter = BodyCutter(body: response.body, limit: limit, request: request.summary)
            return HTTPResponse(
                status: response.status, headers: response.headers, url: response.url,
                body: HTTPResponseBody(next: { try await cutter.next() }))
        case .slowBody(let pause):
            let response = try await base.send(request)
            let iterator = SharedIterator(response.body)
            return HTTPResponse(
                status: response.status, headers: response.headers, url: response.url,
                body: HTTPResponseBody(next: {
                    try await Task.sleep(for: pause)
                    return try await iterator.next()
                }))
        }
    }
}

private actor SharedIterator {
    var iterator: UploadStream.AsyncIterator
    init(_ body: HTTPResponseBody) { iterator = body.makeAsyncIterator() }
    func next() async throws -> ByteBuffer? { try await iterator.next() }
}

private actor BodyCutter {
    var iterator: UploadStream.AsyncIterator
    let limit: Int64
    let request: String
    var delivered: Int64 = 0

    init(body: HTTPResponseBody, limit: Int64, request: String) {
        iterator = body.makeAsyncIterator()
        self.limit = limit
        self.request = request
    }

    func next() async throws -> ByteBuffer? {
        if delivered >= limit { throw ProviderError(.network, "injected connection drop", request: request) }
        guard var piece = try await iterator.next() else { return nil }
        let room = limit - delivered
        if Int64(piece.readableBytes) > room {
            piece = piece.getSlice(at: piece.readerIndex, length: Int(room)) ?? ByteBuffer()
        }
        delivered += Int64(piece.readableBytes)
        return piece
    }
}

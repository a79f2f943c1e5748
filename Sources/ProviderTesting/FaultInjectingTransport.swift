import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

/// Wraps a transport and injects failures on demand, for tests of retries,
/// resume and error mapping against real servers.
public final class FaultInjectingTransport: HTTPTransport {
    /// One injected failure.
    public enum Fault: Sendable {
        /// Fail before sending, as a refused connection does.
        case connectionFailure
        /// Answer with this status (and `Retry-After` seconds, if given) without sending; a `401`
        /// carries a `WWW-Authenticate: Basic` challenge.
        case status(Int, retryAfter: Int?)
        /// Send the request, then cut the response body after this many bytes.
        ///
        /// A response that declares a `Content-Length` of at most this many bytes cannot be cut
        /// there, so it passes untouched and does not use the fault up: the fault waits for a body
        /// long enough, such as a download after an adapter's metadata lookups.
        ///
        /// An answer without a `Content-Length` is cut the same way; if its body ends before
        /// this many bytes, the fault is given back for a later answer.
        case dropBody(after: Int64)
        /// Send the request, remove the answer's `Content-Length`, and end its body cleanly after
        /// this many bytes, as a server whose length-less answer loses its connection looks to
        /// the client (the end of the stream cannot be told from the cut).
        ///
        /// Like ``dropBody(after:)``, an answer whose body is not longer than this passes (its
        /// length declared, or without one if it had none) and does not use the fault up.
        case truncateBody(after: Int64)
        /// Send the request, then deliver the body in pieces with this pause between them.
        case slowBody(pause: Duration)
        /// Send the request (the server acts on it), then fail as a connection lost before the
        /// answer came does: the client cannot tell whether the request was carried out.
        case answerLost
    }

    /// Decides whether a request gets a fault.
    public typealias Rule = @Sendable (TransportRequest) -> Fault?

    private let base: any HTTPTransport
    private struct State {
        var rules: [(remaining: Int, rule: Rule)] = []
        var sent: [String] = []
        var applied = 0
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

    /// How many injected faults are still waiting for a request (or an answer long enough) to meet.
    package var armedFaults: Int { state.withLockedValue { $0.rules.reduce(0) { $0 + $1.remaining } } }

    /// The summaries of the requests seen, faulted or not.
    package var requests: [String] { state.withLockedValue { $0.sent } }

    /// How many injected faults have taken effect: a failure or status answered, a body
    /// actually cut or truncated (not merely chosen for an answer too short to cut), a slow
    /// body delivered. A test compares it before and after a call to tell that the fault it
    /// meant was applied, whatever the server's answers looked like.
    public var appliedFaults: Int { state.withLockedValue { $0.applied } }

    private func markApplied() {
        state.withLockedValue { $0.applied += 1 }
    }

    /// The fault for `request` and the index of the rule that chose it (rules are only ever appended).
    private func fault(for request: TransportRequest) -> (fault: Fault, rule: Int)? {
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

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let chosen = fault(for: request)
        switch chosen?.fault {
        case nil:
            return try await base.send(request)
        case .connectionFailure:
            markApplied()
            throw ProviderError(.network, "injected connection failure", request: request.summary)
        case .status(let status, let retryAfter):
            markApplied()
            var headers = HTTPHeaders()
            if let retryAfter { headers.add(name: "Retry-After", value: "\(retryAfter)") }
            // A 401 carries its challenge, as RFC 9110 requires.
            if status == 401 { headers.add(name: "WWW-Authenticate", value: #"Basic realm="strata-fault""#) }
            headers.add(name: "Content-Length", value: "0")
            return TransportResponse(status: status, headers: headers, url: request.url, body: .empty)
        case .dropBody(let limit), .truncateBody(let limit):
            let response = try await base.send(request)
            guard let rule = chosen?.rule else { return response }
            if let length = response.contentLength, length <= limit {
                rearm(rule)
                return response
            }
            var truncates = false
            if case .truncateBody = chosen?.fault { truncates = true }
            let cutter = BodyCutter(
                body: response.body, limit: limit, truncates: truncates, request: request.summary,
                endedEarly: { [weak self] in self?.rearm(rule) }, cut: { [weak self] in self?.markApplied() })
            var headers = response.headers
            if truncates { headers.remove(name: "Content-Length") }
            return TransportResponse(
                status: response.status, headers: headers, url: response.url,
                body: HTTPResponseBody(next: { try await cutter.next() }))
        case .answerLost:
            _ = try await base.send(request)
            markApplied()
            throw ProviderError(.network, "injected loss of the answer, after the server received the request", request: request.summary)
        case .slowBody(let pause):
            let response = try await base.send(request)
            markApplied()
            let iterator = SharedIterator(response.body)
            return TransportResponse(
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
    /// The next piece; the iterator is copied out because an actor's stored property cannot be
    /// passed `inout` across a suspension (its state lives in the closure it wraps).
    private func pull() async throws -> ByteBuffer? {
        var copy = iterator
        defer { iterator = copy }
        return try await copy.next()
    }
    init(_ body: HTTPResponseBody) { iterator = body.makeAsyncIterator() }
    func next() async throws -> ByteBuffer? { try await pull() }
}

private actor BodyCutter {
    var iterator: UploadStream.AsyncIterator
    /// The next piece (see `SharedIterator.pull()`).
    private func pull() async throws -> ByteBuffer? {
        var copy = iterator
        defer { iterator = copy }
        return try await copy.next()
    }
    let limit: Int64
    let truncates: Bool
    let request: String
    let endedEarly: @Sendable () -> Void
    let cut: @Sendable () -> Void
    var delivered: Int64 = 0
    var done = false
    /// Whether bytes past the cut were seen (and dropped).
    var sliced = false
    /// Whether the cut was reported as applied.
    var counted = false

    init(
        body: HTTPResponseBody, limit: Int64, truncates: Bool, request: String, endedEarly: @escaping @Sendable () -> Void,
        cut: @escaping @Sendable () -> Void
    ) {
        iterator = body.makeAsyncIterator()
        self.limit = limit
        self.truncates = truncates
        self.request = request
        self.endedEarly = endedEarly
        self.cut = cut
    }

    func next() async throws -> ByteBuffer? {
        if done { return nil }
        if delivered >= limit {
            // A body of exactly `limit` bytes is not cut.
            if !sliced, try await pull() == nil {
                done = true
                endedEarly()
                return nil
            }
            if !counted {
                counted = true
                cut()
            }
            if truncates {
                done = true
                return nil
            }
            throw ProviderError(.network, "injected connection drop", request: request)
        }
        guard var piece = try await pull() else {
            // The body was not long enough to cut: the fault waits for another answer.
            done = true
            endedEarly()
            return nil
        }
        let room = limit - delivered
        if Int64(piece.readableBytes) > room {
            piece = piece.getSlice(at: piece.readerIndex, length: Int(room)) ?? ByteBuffer()
            sliced = true
        }
        delivered += Int64(piece.readableBytes)
        return piece
    }
}

import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

/// A request as the scripted transport saw it, with its body read out the way a real transport would.
struct RecordedRequest: Sendable {
    var method: String
    var url: URL
    var headers: HTTPHeaders
    /// `nil` when the request had no body.
    var body: [UInt8]?

    func header(_ name: String) -> String? { headers.first(name: name) }
}

/// One scripted answer.
enum ScriptedStep: Sendable {
    /// Answer with this status, headers and body (delivered in the given pieces).
    case respond(status: Int, headers: [(String, String)] = [], pieces: [[UInt8]] = [])
    /// Fail as a refused connection does.
    case fail(ProviderError)

    static func status(_ status: Int, _ headers: [(String, String)] = [], body: String = "") -> ScriptedStep {
        .respond(status: status, headers: headers, pieces: body.isEmpty ? [] : [Array(body.utf8)])
    }

    static var connectionRefused: ScriptedStep { .fail(ProviderError(.network, "connection refused")) }
    /// Fail as a connection cut by the server does (retried as often as the policy allows).
    static var connectionReset: ScriptedStep { .fail(ProviderError(.network, "the server closed the connection")) }
}

/// An in-memory `HTTPTransport`: answers each request with the next scripted step and records it.
///
/// When the script runs out, `fallback` answers (by default a 599, which no test expects,
/// so a request the test did not plan for makes the test fail rather than hang).
final class ScriptedTransport: HTTPTransport {
    private struct State {
        var steps: [ScriptedStep]
        var requests: [RecordedRequest] = []
    }
    private let state: NIOLockedValueBox<State>
    private let fallback: ScriptedStep

    init(_ steps: [ScriptedStep], fallback: ScriptedStep = .status(599)) {
        state = NIOLockedValueBox(State(steps: steps))
        self.fallback = fallback
    }

    /// Every request sent so far, in order.
    var requests: [RecordedRequest] { state.withLockedValue { $0.requests } }
    /// How many requests were sent.
    var count: Int { state.withLockedValue { $0.requests.count } }
    /// Steps not used yet.
    var remainingSteps: Int { state.withLockedValue { $0.steps.count } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var body: [UInt8]?
        switch request.body {
        case nil: body = nil
        case .bytes(let buffer): body = Array(buffer.readableBytesView)
        case .source(let source):
            var collected: [UInt8] = []
            for try await piece in try source.makeStream() { collected += Array(piece.readableBytesView) }
            body = collected
        }
        let recorded = RecordedRequest(method: request.method.rawValue, url: request.url, headers: request.headers, body: body)
        let step: ScriptedStep = state.withLockedValue { state in
            state.requests.append(recorded)
            return state.steps.isEmpty ? fallback : state.steps.removeFirst()
        }
        switch step {
        case .fail(let error):
            throw error
        case .respond(let status, let headers, let pieces):
            var httpHeaders = HTTPHeaders()
            for (name, value) in headers { httpHeaders.add(name: name, value: value) }
            let buffers = pieces.map { ByteBuffer(bytes: $0) }
            let queue = NIOLockedValueBox(buffers)
            let responseBody = HTTPResponseBody(next: {
                queue.withLockedValue { $0.isEmpty ? nil : $0.removeFirst() }
            })
            return TransportResponse(status: status, headers: httpHeaders, url: request.url, body: responseBody)
        }
    }
}

/// A one-shot async sequence of byte buffers that counts how often it was iterated.
struct OneShotSequence: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let pieces: [[UInt8]]
    let iterations: NIOLockedValueBox<Int>

    init(_ pieces: [[UInt8]]) {
        self.pieces = pieces
        iterations = NIOLockedValueBox(0)
    }

    var timesIterated: Int { iterations.withLockedValue { $0 } }

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: [[UInt8]]
        mutating func next() async throws -> ByteBuffer? {
            remaining.isEmpty ? nil : ByteBuffer(bytes: remaining.removeFirst())
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        iterations.withLockedValue { $0 += 1 }
        return AsyncIterator(remaining: pieces)
    }
}

/// A thread-safe list for collecting values from `@Sendable` callbacks.
final class Collector<Value: Sendable>: Sendable {
    private let box = NIOLockedValueBox<[Value]>([])
    func append(_ value: Value) { box.withLockedValue { $0.append(value) } }
    var values: [Value] { box.withLockedValue { $0 } }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let box = NIOLockedValueBox(0)
    @discardableResult func increment() -> Int { box.withLockedValue { $0 += 1; return $0 } }
    var value: Int { box.withLockedValue { $0 } }
}

/// A retry policy that never waits long enough to matter.
let fastRetry = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(1), maxDelay: .milliseconds(2), maxRetryAfter: .seconds(1))

func url(_ string: String) -> URL {
    guard let url = URL(string: string) else { preconditionFailure("bad test URL \(string)") }
    return url
}

/// A logger that stays quiet unless something is badly wrong, so retries do not flood the test output.
let quietLogger: Logger = {
    var logger = Logger(label: "strata.tests")
    logger.logLevel = .critical
    return logger
}()

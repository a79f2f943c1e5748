import Foundation
import HTTPProviderKit
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI

// Written as an outside adapter author would: plain imports, public API only.

/// An in-memory file server for the adapter kit's tests: `PUT` stores the body under the path as
/// it arrives (as servers that keep a partial upload do), `MOVE` renames to the `Destination`
/// path (`Overwrite: F` refuses a taken name with 412), `DELETE` removes; every request is
/// recorded as `METHOD /path`. A `PUT` whose body does not end waits until its task is cancelled.
final class HangingUploadServer: HTTPTransport {
    private let state = NIOLockedValueBox<(files: [String: [UInt8]], requests: [String])>(([:], []))
    /// Yields once for each `PUT` whose first bytes arrived.
    let uploadStarted: AsyncStream<Void>
    private let started: AsyncStream<Void>.Continuation
    /// Statuses to answer instead of acting, by method (used once each).
    private let failures = NIOLockedValueBox<[String: Int]>([:])

    init(files: [String: String] = [:]) {
        (uploadStarted, started) = AsyncStream.makeStream()
        state.withLockedValue { $0.files = files.mapValues { Array($0.utf8) } }
    }

    var files: [String: String] { state.withLockedValue { $0.files.mapValues { String(decoding: $0, as: UTF8.self) } } }
    var requests: [String] { state.withLockedValue { $0.requests } }

    /// Answers the next request with `method` with `status`, doing nothing.
    func fail(_ method: String, with status: Int) { failures.withLockedValue { $0[method] = status } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let path = request.url.path
        state.withLockedValue { $0.requests.append("\(request.method.rawValue) \(path)") }
        if let status = failures.withLockedValue({ $0.removeValue(forKey: request.method.rawValue) }) {
            return TransportResponse(status: status, url: request.url)
        }
        switch request.method.rawValue {
        case "PUT":
            state.withLockedValue { $0.files[path] = [] }
            switch request.body {
            case .source(let source):
                for try await piece in try source.makeStream() {
                    state.withLockedValue { $0.files[path, default: []] += Array(piece.readableBytesView) }
                    started.yield()
                }
            case .bytes(let buffer):
                state.withLockedValue { $0.files[path] = Array(buffer.readableBytesView) }
            case nil:
                break
            }
            try Task.checkCancellation()
            return TransportResponse(status: 201, url: request.url)
        case "MOVE":
            guard let destination = request.headers.first(name: "destination").flatMap(URL.init(string:))?.path else {
                return TransportResponse(status: 400, url: request.url)
            }
            return state.withLockedValue { state in
                guard let bytes = state.files[path] else { return TransportResponse(status: 404, url: request.url) }
                if state.files[destination] != nil, request.headers.first(name: "overwrite") == "F" {
                    return TransportResponse(status: 412, url: request.url)
                }
                state.files[path] = nil
                state.files[destination] = bytes
                return TransportResponse(status: 201, url: request.url)
            }
        case "DELETE":
            let existed = state.withLockedValue { $0.files.removeValue(forKey: path) != nil }
            return TransportResponse(status: existed ? 204 : 404, url: request.url)
        default:
            return TransportResponse(status: 405, url: request.url)
        }
    }
}

/// An upload body that sends `first` and then never ends, until its reader is cancelled.
func endlessBody(_ first: String) -> any UploadSource {
    let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream()
    continuation.yield(ByteBuffer(string: first))
    return AsyncSequenceSource(EndlessSequence(stream: stream, continuation: continuation))
}

/// A stream kept open by holding its continuation, which never finishes it.
private struct EndlessSequence: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let stream: AsyncStream<ByteBuffer>
    let continuation: AsyncStream<ByteBuffer>.Continuation
    func makeAsyncIterator() -> AsyncStream<ByteBuffer>.AsyncIterator { stream.makeAsyncIterator() }
}

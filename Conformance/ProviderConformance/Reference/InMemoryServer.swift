import Foundation
import HTTPProviderKit
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderTesting

/// A content server held in memory that answers HTTP requests directly, without a socket.
///
/// It is an `HTTPTransport`: give it to ``InMemoryProvider`` (directly, or under a
/// `CountingTransport` or `FaultInjectingTransport`) and every call of the provider
/// becomes one request answered here, so request counts, retries, cut bodies and
/// cancellation behave as they do against a real server. Uploads are atomic: a body
/// that fails or is cancelled part-way leaves nothing behind.
///
/// ```swift
/// let server = InMemoryServer()
/// var options = ConformanceOptions()
/// options.baseTransport = server
/// let suite = ConformanceSuite(subject: "in-memory", options: options) { environment in
///     InMemoryProvider(transport: environment.transport)
/// }
/// ```
package final class InMemoryServer: HTTPTransport {
    /// The names the server accepts and how it stores them.
    package let names: NameRules
    let store: NIOLockedValueBox<InMemoryStore>

    /// Creates an empty server that applies `names`, and stamps what it writes with `clock`'s
    /// time (the present by default; a test gives a clock of its own instead of waiting for one).
    package init(names: NameRules = NameRules(), clock: @escaping @Sendable () -> Date = { Date() }) {
        self.names = names
        store = NIOLockedValueBox(InMemoryStore(rules: names, clock: clock))
    }

    /// How many files and folders the server holds, the root included.
    package var nodeCount: Int { store.withLockedValue { $0.nodes.count } }

    /// The item at `path` and its content, read together.
    func snapshot(_ path: ItemPath) throws -> (Item, [UInt8]) {
        try store.withLockedValue { store in
            let key = store.key(path)
            return (try store.item(key), store.nodes[key]?.bytes ?? [])
        }
    }

    package func send(_ request: TransportRequest) async throws -> TransportResponse {
        if Task.isCancelled { throw ProviderError(.cancelled, "cancelled", request: request.summary) }
        do {
            return try await handle(request)
        } catch let error as ProviderError where error.code == .cancelled || error.code == .network {
            throw error
        } catch let error as ProviderError {
            return InMemoryWire.response(for: error, url: request.url)
        }
    }

    private func handle(_ request: TransportRequest) async throws -> TransportResponse {
        if request.url.host == InMemoryWire.linkHost { return link(request) }
        let path = try InMemoryWire.path(of: request.url)
        let headers = request.headers
        let limit = headers.first(name: InMemoryWire.limitHeader).flatMap(Int.init)
        let cursor = headers.first(name: InMemoryWire.cursorHeader)
        switch (request.method.rawValue, headers.first(name: InMemoryWire.operationHeader)) {
        case ("PROPFIND", _):
            if headers.first(name: "Depth") == "0" {
                return try json(store.withLockedValue { try $0.item($0.key(path)) }, request)
            }
            return try json(store.withLockedValue { try $0.list($0.key(path), limit: limit, cursor: cursor) }, request)
        case ("GET", _):
            return try download(path, request)
        case ("PUT", _):
            let bytes = try await Self.body(of: request)
            let conflict = headers.first(name: InMemoryWire.conflictHeader).flatMap(ConflictPolicy.init) ?? .overwrite
            let modified = headers.first(name: InMemoryWire.modifiedHeader).flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }
            let item = try store.withLockedValue {
                try $0.write(
                    bytes, folder: path.parent, name: path.name, conflict: conflict, ifMatch: headers.first(name: "If-Match"),
                    modified: modified, mimeType: headers.first(name: "Content-Type"))
            }
            return try json(item, request, status: 201)
        case ("MKCOL", _):
            return try json(store.withLockedValue { try $0.makeFolder(path.name, in: path.parent) }, request, status: 201)
        case ("DELETE", "revoke"):
            try store.withLockedValue { try $0.revoke(headers.first(name: InMemoryWire.shareHeader) ?? "") }
            return TransportResponse(status: 204, url: request.url)
        case ("DELETE", _):
            try store.withLockedValue { try $0.delete(path) }
            return TransportResponse(status: 204, url: request.url)
        case ("MOVE", _), ("COPY", _):
            let destination = try InMemoryWire.decode(Substring(headers.first(name: "Destination") ?? ""))
            let overwrite = headers.first(name: "Overwrite") == "T"
            let keep = request.method.rawValue == "COPY"
            return try json(store.withLockedValue { try $0.transfer(path, to: destination, overwrite: overwrite, keepSource: keep) }, request, status: 201)
        case ("SEARCH", _):
            let query = try InMemoryWire.decodeJSON(Query.self, from: ByteBuffer(bytes: try await Self.body(of: request)), request: request.summary)
            return try json(store.withLockedValue { try $0.search(query, limit: limit, cursor: cursor) }, request)
        case ("POST", "share"):
            let wanted = try InMemoryWire.decodeJSON(WireShareRequest.self, from: ByteBuffer(bytes: try await Self.body(of: request)), request: request.summary)
            return try json(store.withLockedValue { try $0.share(path, wanted) }, request, status: 201)
        case ("REPORT", "shares"):
            return try json(store.withLockedValue { try $0.shares(of: path) }, request)
        case ("REPORT", "quota"):
            return try json(store.withLockedValue { $0.quota() }, request)
        case ("REPORT", "changes"):
            return try json(store.withLockedValue { try $0.changes(since: headers.first(name: InMemoryWire.sinceHeader)) }, request)
        default:
            throw ProviderError(.invalidArgument, "the in-memory server does not know \(request.method.rawValue)")
        }
    }

    /// A `GET` of a public link (``InMemoryWire/linkURL(_:download:)``).
    private func link(_ request: TransportRequest) -> TransportResponse {
        let segments = request.url.path.split(separator: "/").map(String.init)
        var answer: (status: Int, bytes: [UInt8]) = (404, Array("no such link".utf8))
        if request.method == .GET, segments.count >= 2, segments.count <= 3, segments[0] == "s", segments.count == 2 || segments[2] == "download" {
            let password = InMemoryWire.basicPassword(request.headers.first(name: "Authorization"))
            answer = store.withLockedValue { $0.openLink(segments[1], download: segments.count == 3, password: password) }
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Length", value: String(answer.bytes.count))
        if answer.status == 401 { headers.add(name: "WWW-Authenticate", value: "Basic realm=\"link\"") }
        return TransportResponse(status: answer.status, headers: headers, url: request.url, body: .bytes(ByteBuffer(bytes: answer.bytes)))
    }

    private func json<Value: Encodable>(_ value: Value, _ request: TransportRequest, status: Int = 200) throws -> TransportResponse {
        let body = try InMemoryWire.encodeJSON(value)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        return TransportResponse(status: status, headers: headers, url: request.url, body: .bytes(body))
    }

    /// Reads a request body whole, reporting upload progress; a failed or cancelled body throws.
    private static func body(of request: TransportRequest) async throws -> [UInt8] {
        switch request.body {
        case nil:
            return []
        case .bytes(let buffer):
            return Array(buffer.readableBytesView)
        case .source(let source):
            var bytes: [UInt8] = []
            do {
                for try await piece in try source.makeStream() {
                    try Task.checkCancellation()
                    bytes.append(contentsOf: piece.readableBytesView)
                    if let length = source.length, bytes.count > length {
                        throw ProviderError(.invalidArgument, "the body is longer than its declared \(length) bytes")
                    }
                    request.uploadProgress?(TransferProgress(completed: Int64(bytes.count), expected: source.length))
                }
            } catch let error as ProviderError {
                throw error
            } catch {
                if error is CancellationError || Task.isCancelled {
                    throw ProviderError(.cancelled, "cancelled", request: request.summary)
                }
                throw ProviderError.wrap(error, request: request.summary)
            }
            if let length = source.length, bytes.count != length {
                throw ProviderError(.network, "the body ended after \(bytes.count) of \(length) bytes", request: request.summary)
            }
            return bytes
        }
    }
}

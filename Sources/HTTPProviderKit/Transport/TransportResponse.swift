import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderAPI

/// The streamed body of an ``TransportResponse``.
///
/// Iterate it once. Memory stays flat because nothing is read before the
/// consumer asks for it.
public struct HTTPResponseBody: AsyncSequence, Sendable {
    public typealias Element = ByteBuffer
    private let stream: UploadStream

    /// Wraps a sequence of byte buffers.
    public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == ByteBuffer {
        stream = UploadStream(sequence)
    }

    /// Wraps a function producing each next piece.
    public init(next: @escaping @Sendable () async throws -> ByteBuffer?) {
        stream = UploadStream(next: next)
    }

    /// An empty body.
    public static var empty: HTTPResponseBody { HTTPResponseBody(next: { nil }) }

    /// A body of the given bytes.
    public static func bytes(_ buffer: ByteBuffer) -> HTTPResponseBody {
        let box = OnceBox(buffer)
        return HTTPResponseBody(next: { box.take() })
    }

    public func makeAsyncIterator() -> UploadStream.AsyncIterator { stream.makeAsyncIterator() }

    /// Reads the whole body, refusing bodies over `limit` bytes.
    public func collect(upTo limit: Int) async throws -> ByteBuffer {
        var result = ByteBuffer()
        for try await var piece in self {
            guard result.readableBytes + piece.readableBytes <= limit else {
                throw ProviderError(.invalidResponse, "response body larger than \(limit) bytes")
            }
            result.writeBuffer(&piece)
        }
        return result
    }

    /// Reads and drops the rest of the body so the connection can be reused.
    public func discard() async {
        do { for try await _ in self {} } catch {}
    }

    /// Reads and drops at most `limit` bytes for at most `time`, then stops reading: a body that
    /// goes on (or stalls) is abandoned, which closes its connection, and never read to the end.
    ///
    /// For bodies a server controls and nobody wants, such as a redirect's.
    package func discard(upTo limit: Int, within time: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var read = 0
                do {
                    for try await piece in self {
                        read += piece.readableBytes
                        if read > limit { return }
                    }
                } catch {}
            }
            group.addTask { try? await Task.sleep(for: time) }
            // The first to end (the body, the limit or the clock) ends the other.
            _ = await group.next()
            group.cancelAll()
        }
    }
}

private final class OnceBox: Sendable {
    private let value: NIOLockedValueBox<ByteBuffer?>
    init(_ value: ByteBuffer) { self.value = NIOLockedValueBox(value) }
    func take() -> ByteBuffer? {
        value.withLockedValue { value in
            defer { value = nil }
            return value
        }
    }
}

/// An HTTP response whose body has not been read yet.
public struct TransportResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The headers.
    public var headers: HTTPHeaders
    /// The URL that answered, after any redirects.
    public var url: URL
    /// The body.
    public var body: HTTPResponseBody

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], url: URL, body: HTTPResponseBody = .empty) {
        self.status = status
        self.headers = headers
        self.url = url
        self.body = body
    }

    /// The `Content-Length`, when sent.
    public var contentLength: Int64? { headers.first(name: "content-length").flatMap { Int64($0) } }

    /// The `Retry-After` delay, in delta-seconds or as an HTTP date.
    package var retryAfter: Duration? {
        guard let value = headers.first(name: "retry-after")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        if let date = HTTPDate.parse(value) { return .milliseconds(max(0, Int(date.timeIntervalSinceNow * 1000))) }
        return nil
    }

    /// The `ETag` header, exactly as sent.
    public var etag: String? { headers.first(name: "etag") }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

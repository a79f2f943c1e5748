import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

/// A transport that records every request it is given, then answers it from memory (or passes it
/// on to another transport), for tests of what an adapter sends: its method and URL, headers, and
/// the `TransportRequest.timeouts` the provider's configuration put on it.
///
/// ```swift
/// let recorder = RecordingTransport { _ in (207, ["Content-Type": "application/xml"], multistatus) }
/// let (provider, _) = try await registry.provider(
///     for: url, services: .transport(recorder), probe: false, timeouts: Timeouts(read: .seconds(5)))
/// _ = try? await provider.item(at: "/a")
/// #expect(recorder.requests.first?.timeouts.read == .seconds(5))
/// ```
public final class RecordingTransport: HTTPTransport {
    /// An answer from memory: status, headers and body.
    public typealias Answer = @Sendable (TransportRequest) -> (status: Int, headers: [(String, String)], body: String)

    private enum Next {
        case answer(Answer)
        case transport(any HTTPTransport)
    }

    private let next: Next
    private let recorded = NIOLockedValueBox<[TransportRequest]>([])

    /// Records each request and answers it with `answer` (by default an empty `200`).
    public init(answer: @escaping Answer = { _ in (200, [], "") }) {
        next = .answer(answer)
    }

    /// Records each request and sends it on through `base`.
    public init(passingTo base: any HTTPTransport) {
        next = .transport(base)
    }

    /// The requests given so far, oldest first.
    public var requests: [TransportRequest] { recorded.withLockedValue { $0 } }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        recorded.withLockedValue { $0.append(request) }
        switch next {
        case .transport(let base):
            return try await base.send(request)
        case .answer(let answer):
            let (status, headers, body) = answer(request)
            var head = HTTPHeaders()
            for (name, value) in headers { head.add(name: name, value: value) }
            return TransportResponse(status: status, headers: head, url: request.url, body: .bytes(ByteBuffer(string: body)))
        }
    }
}

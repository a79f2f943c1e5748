import Foundation
import HTTPProviderKit
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderAPI

extension InMemoryServer {
    /// Answers a `GET`: the whole file, a `Range` (honouring `If-Range`), `If-Match` and `If-None-Match`,
    /// with the body streamed in pieces.
    func download(_ path: ItemPath, _ request: TransportRequest) throws -> TransportResponse {
        let (item, bytes) = try snapshot(path)
        guard item.kind == .file, let etag = item.etag else { throw ProviderError(.invalidArgument, "\(path) is a folder") }
        var headers = HTTPHeaders()
        headers.add(name: "ETag", value: etag)
        headers.add(name: "Accept-Ranges", value: "bytes")
        headers.add(name: InMemoryWire.itemHeader, value: try InMemoryWire.headerValue(for: item))
        let wanted = request.headers
        if let ifMatch = wanted.first(name: "If-Match"), ifMatch != etag {
            throw ProviderError(.preconditionFailed, "the file changed: \(etag), not \(ifMatch)")
        }
        if let ifNoneMatch = wanted.first(name: "If-None-Match"), ifNoneMatch == etag {
            return TransportResponse(status: 304, headers: headers, url: request.url)
        }
        let size = bytes.count
        var range = 0..<size
        var status = 200
        let rangeApplies = wanted.first(name: "If-Range").map { $0 == etag } ?? true
        if rangeApplies, let header = wanted.first(name: "Range") {
            guard let requested = Self.parseRange(header, size: size) else {
                headers.add(name: "Content-Range", value: "bytes */\(size)")
                headers.add(name: "Content-Length", value: "0")
                return TransportResponse(status: 416, headers: headers, url: request.url)
            }
            range = requested
            status = 206
            headers.add(name: "Content-Range", value: "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)")
        }
        headers.add(name: "Content-Length", value: String(range.count))
        return TransportResponse(status: status, headers: headers, url: request.url, body: Self.stream(bytes, range))
    }

    /// A body that hands out `bytes[range]` in pieces.
    private static func stream(_ bytes: [UInt8], _ range: Range<Int>) -> HTTPResponseBody {
        let position = NIOLockedValueBox(range.lowerBound)
        return HTTPResponseBody(next: {
            let slice = position.withLockedValue { offset -> Range<Int>? in
                guard offset < range.upperBound else { return nil }
                let end = min(range.upperBound, offset + (64 << 10))
                defer { offset = end }
                return offset..<end
            }
            return slice.map { ByteBuffer(bytes: bytes[$0]) }
        })
    }

    /// The satisfiable byte range a `Range` header asks for, or `nil`.
    static func parseRange(_ header: String, size: Int) -> Range<Int>? {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.hasPrefix("bytes="), !value.contains(",") else { return nil }
        let spec = value.dropFirst(6)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, size > 0 else { return nil }
        if parts[0].isEmpty {
            guard let count = Int(parts[1]), count > 0 else { return nil }
            return max(0, size - count)..<size
        }
        guard let start = Int(parts[0]), start >= 0, start < size else { return nil }
        if parts[1].isEmpty { return start..<size }
        guard let end = Int(parts[1]), end >= start else { return nil }
        return start..<min(size, end + 1)
    }
}

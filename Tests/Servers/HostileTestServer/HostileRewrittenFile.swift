import Foundation
import NIOConcurrencyHelpers

/// A WebDAV `/file.bin` of 1000 bytes served without any `ETag`, only `Last-Modified` (and a
/// `Date`), and rewritten in place at the same size: the hostile case of a resume without a
/// strong validator.
///
/// The first `GET` declares the whole length and sends 400 bytes of the first content, then
/// closes. The content becomes the second one (same size, a later `Last-Modified`) when
/// ``rewrite()`` is called, or right after that first `GET` with `rewriteAfterFirstGet`. A
/// `Range: bytes=N-` is answered `206` from the current content when there is no `If-Range` (a
/// blind resume gets the new bytes) or when the server ignores `If-Range`; a server that honours
/// it answers `200` with the whole current content when the date is not the current one.
public final class HostileRewrittenFile: Sendable {
    /// The two contents, the same size.
    public let first: [UInt8]
    /// The content after the rewrite.
    public let second: [UInt8]
    /// The `Last-Modified` of each content.
    public static let dates = ["Mon, 01 Jun 2020 10:00:00 GMT", "Mon, 01 Jun 2020 10:00:05 GMT"]
    private let honoursIfRange: Bool
    private let rewriteAfterFirstGet: Bool
    private let dateHeader: String?
    private let state = NIOLockedValueBox((version: 0, gets: 0))

    /// A file whose server honours `If-Range` or not; `dateSameSecond` sends a `Date` equal to the
    /// `Last-Modified` (a weak date, RFC 9110 §8.8.2.2).
    public init(honoursIfRange: Bool = true, rewriteAfterFirstGet: Bool = false, dateSameSecond: Bool = false) {
        first = HostileDAV.content(1000)
        second = first.map { $0 ^ 0x5A }
        self.honoursIfRange = honoursIfRange
        self.rewriteAfterFirstGet = rewriteAfterFirstGet
        dateHeader = dateSameSecond ? nil : "Sat, 28 Nov 2026 00:00:00 GMT"
    }

    /// Rewrites the file in place at the same size.
    public func rewrite() { state.withLockedValue { $0.version = 1 } }

    /// The scenario serving the file.
    public var scenario: HostileScenario {
        HostileScenario.webdav("a file rewritten at the same size, without etag", entries: [.file(HostileScenario.fileName, size: 1000)]) {
            request, _ in
            guard request.method == "GET", request.path == "/" + HostileScenario.fileName else { return .text(404, "not found") }
            let (version, gets) = self.state.withLockedValue { state in
                state.gets += 1
                let seen = (state.version, state.gets)
                if state.gets == 1, self.rewriteAfterFirstGet { state.version = 1 }
                return seen
            }
            let content = version == 0 ? self.first : self.second
            let modified = Self.dates[version]
            let headers = [
                ("Content-Type", "application/octet-stream"), ("Accept-Ranges", "bytes"), ("Last-Modified", modified),
                ("Date", self.dateHeader ?? modified),
            ]
            if gets == 1 {
                return HostileResponse([
                    .bytes(HostileResponse.head(200, headers: headers + [("Content-Length", String(content.count))])),
                    .bytes(Array(content.prefix(400))),
                ])
            }
            if let range = request.header("Range"), range.hasPrefix("bytes="), range.hasSuffix("-"),
                let start = Int(range.dropFirst(6).dropLast()), start < content.count,
                !self.honoursIfRange || request.header("If-Range").map({ $0 == modified }) ?? true
            {
                return .complete(
                    206, headers: headers + [("Content-Range", "bytes \(start)-\(content.count - 1)/\(content.count)")],
                    body: Array(content[start...]))
            }
            return .complete(200, headers: headers, body: content)
        }
    }
}

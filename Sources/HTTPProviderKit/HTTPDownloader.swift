import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderKit

/// The streaming download every HTTP adapter shares: the HTTP wiring of ProviderKit's download
/// rules. `DownloadRequestPlan` decides the range and validator to ask (`Range`, `If-Range`) and
/// what each answer means (`206`/`304`/`416`, a server that ignores `Range` or answers wider, a
/// resume the server contradicts, the continuation of a cut body); `DownloadDriver` pours the
/// bodies into the sink (progress, cancellation, length and digest checks, the sink's
/// begin/write/finish/fail protocol). What differs between servers comes
/// from the adapter's ``HTTPDownloadDialect``.
public struct HTTPDownloader: Sendable {
    /// Sends the requests.
    public let executor: RequestExecutor

    /// Creates a downloader.
    public init(executor: RequestExecutor) { self.executor = executor }

    /// Downloads `request` (a `GET`) into `sink`.
    ///
    /// The body is checked against every size known for it: the answer's `Content-Length`, its
    /// `Content-Range` (extent and total), and, when the whole file is downloaded, the size the
    /// provider reported (`expected?.size`, or the size the dialect reads from the answer). A body
    /// that ends short of any of them is `ProviderError.Code.network` ("the body ended after N
    /// of M bytes"); one that goes past any of them is `ProviderError.Code.integrity` ("the
    /// server sent more than the M bytes it declared"). Either way the sink fails, so nothing is
    /// left under a `FileSink`'s final name.
    ///
    /// `DownloadOptions.resume` continues the sink's partial bytes only under the validator they
    /// were kept with (`ResumePoint.validator`), sent as `If-Range`; partial bytes without one are
    /// dropped and the whole file is downloaded, and a `200` (the content changed) or a `206` that
    /// contradicts the validator starts over from byte 0. Never a splice of two contents.
    ///
    /// A `206` is accepted only for a range that was asked (`DownloadOptions.resume` or
    /// `DownloadOptions.range`), starting where it was asked. A body cut in the middle is
    /// continued with a `Range` request up to `DownloadOptions.maxResumes` times when the
    /// server has shown it serves ranges and the content has a strong validator, sent as
    /// `If-Range` (a strong etag, or a strong `Last-Modified` date); the sink then gets
    /// `DownloadSink.begin(offset:expectedLength:validator:)` again with the bytes it holds,
    /// and progress goes on from there.
    ///
    /// - Parameters:
    ///   - request: the `GET` of the content.
    ///   - sink: where the body goes.
    ///   - options: the range, resume, preconditions, digest check and progress asked for.
    ///   - expected: what the adapter knows of the item (size, etag, digests), if anything.
    ///   - dialect: how this server's answers read (item, error, error pages, range spelling, size look-up).
    public func download(
        _ request: TransportRequest, to sink: any DownloadSink, options: DownloadOptions, expected: Item?, dialect: some HTTPDownloadDialect
    ) async throws -> DownloadResult {
        let point = options.resume && options.range == nil ? try await sink.resumePoint().map(ResumeValidator.readable) : nil
        var download = HTTPDownload(
            executor: executor, original: request, request: request, sink: sink, options: options, expected: expected, dialect: dialect,
            plan: DownloadRequestPlan(options: options, resumePoint: point, expected: expected))
        return try await download.run()
    }

    /// Whether the answer says the server serves byte ranges.
    static func acceptsRanges(_ response: TransportResponse) -> Bool {
        response.headers["accept-ranges"].contains { HTTPHeaderValue.listContains($0, token: "bytes") }
    }

    /// Whether two etags, both known, name different content (a weak and a strong tag of the same
    /// value are the same content: Apache turns a weak etag strong within a second).
    static func changed(from before: String?, to after: String?) -> Bool {
        guard let before, let after else { return false }
        return !ETag.weaklyEqual(before, after)
    }
}

/// A parsed `Content-Range: bytes a-b/total` header.
package struct ContentRange: Sendable, Hashable {
    /// First byte.
    package var start: Int64
    /// Last byte, inclusive.
    package var end: Int64
    /// Total length, when known.
    package var total: Int64?

    /// Parses the header value; `nil` if malformed. `bytes */total` (a 416 answer) gives start 0, end -1.
    package init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let rest = trimmed.dropFirst(6)
        let parts = rest.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        total = parts[1] == "*" ? nil : Self.number(parts[1])
        if parts[1] != "*", total == nil { return nil }
        if parts[0] == "*" {
            start = 0
            end = -1
            return
        }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let a = Self.number(bounds[0]), let b = Self.number(bounds[1]), a <= b else { return nil }
        start = a
        end = b
    }

    /// A number as RFC 9110 writes it: ASCII digits only (no sign, no space), fitting `Int64`.
    static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int64(text)
    }
}

import Foundation
import NIOCore
import ProviderAPI

/// What an HTTP adapter tells ``HTTPDownloader`` about its server: how an answer reads as an item
/// or an error, and the server's quirks. Only ``item(from:)`` must be written; the rest have
/// defaults for a server that follows RFC 9110.
///
/// ```swift
/// struct MyDownloads: HTTPDownloadDialect {
///     let path: ItemPath
///     func item(from response: TransportResponse) -> Item {
///         Item(path: path, kind: .file, etag: response.etag)
///     }
///     func error(for response: TransportResponse, body: ByteBuffer, request: TransportRequest) -> ProviderError {
///         MyErrors.map(response, body: body, request: request.summary)
///     }
/// }
/// let result = try await HTTPDownloader(executor: executor)
///     .download(request, to: sink, options: options, expected: nil, dialect: MyDownloads(path: path))
/// ```
public protocol HTTPDownloadDialect: Sendable {
    /// The item an answer describes (read from its headers, or what the adapter already knows).
    func item(from response: TransportResponse) -> Item

    /// The error an answer means: a non-2xx answer, or one that ``isErrorPage(_:)`` recognizes,
    /// given up to 64 KiB of its body. By default `ProviderError.http(_:body:request:message:)`:
    /// the status's code, the request's summary, `Retry-After` and an excerpt of the body's text.
    func error(for response: TransportResponse, body: ByteBuffer, request: TransportRequest) -> ProviderError

    /// Whether a 2xx answer is an error in disguise (a server that answers a download with an XML
    /// or HTML error page and status 200); its body then goes to ``error(for:body:request:)``.
    /// By default `false`.
    func isErrorPage(_ response: TransportResponse) -> Bool

    /// Spells `range` for this server's `Range` header, given the content's size when known (the
    /// `expected` item's size). By default the standard spelling, `ByteRange.httpHeaderValue`.
    /// For servers whose ranges are off by one: a range answered wider than asked is cut down.
    func rangeHeader(_ range: ByteRange, size: Int64?) -> String

    /// The item's size from a metadata request, asked only when a whole-file body has ended and no
    /// size at all was known for it (no `Content-Length`, no `Content-Range`, no expected size), so
    /// that a length-less answer cut short is still caught; `nil` when it cannot be told (the default).
    func sizeOnServer() async -> Int64?
}

extension HTTPDownloadDialect {
    /// The standard error for the answer: its status's code, the request's summary, its
    /// `Retry-After` and an excerpt of its body's text.
    public func error(for response: TransportResponse, body: ByteBuffer, request: TransportRequest) -> ProviderError {
        ProviderError.http(response, body: body, request: request)
    }

    /// No 2xx answer is an error.
    public func isErrorPage(_ response: TransportResponse) -> Bool { false }

    /// The standard spelling.
    public func rangeHeader(_ range: ByteRange, size: Int64?) -> String { range.httpHeaderValue }

    /// Not known.
    public func sizeOnServer() async -> Int64? { nil }
}

import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI

/// How Nuxeo's blob answers read, for `HTTPDownloader`: the item is the document's, errors are Nuxeo's JSON.
///
/// For a blob read by the uid a listing gave (`listed`), an answer from the Nuxeo server whose
/// `ETag` (the blob's digest, quoted: spec §3) is not the digest the listing declared is other
/// content than the listing saw (the document was replaced since): it is refused before any byte
/// reaches the sink, as `preconditionFailed`. An answer without an `ETag`, or from another URL (a
/// blob store the server redirected to, whose `ETag` is its own), is held to the listed size and
/// digest by the downloader.
struct NuxeoDownloadAnswers: HTTPDownloadDialect {
    let item: Item
    /// The listed blob digest and the URL of the blob request, for a read by listed uid.
    var listed: (digest: String, url: URL)? = nil

    func item(from response: TransportResponse) -> Item { item }

    func isErrorPage(_ response: TransportResponse) -> Bool { replaced(response) }

    func error(for response: TransportResponse, body: ByteBuffer, request: TransportRequest) -> ProviderError {
        if replaced(response) {
            return ProviderError(
                .preconditionFailed, "\(item.path) has changed since it was listed (its content is no longer the listed one)",
                httpStatus: response.status, request: request.summary)
        }
        return NuxeoErrorMapper.error(status: response.status, body: Data(body.readableBytesView), request: request.summary, retryAfter: response.retryAfter)
    }

    /// Whether a 2xx answer of the Nuxeo server names a blob other than the listed one.
    func replaced(_ response: TransportResponse) -> Bool {
        guard let listed, response.isSuccess, response.url == listed.url, let etag = response.etag else { return false }
        return Self.unquoted(etag) != listed.digest
    }

    /// An entity tag's value: without `W/` and the quotes.
    static func unquoted(_ etag: String) -> String {
        var value = Substring(etag.trimmingCharacters(in: .whitespaces))
        if value.hasPrefix("W/") { value = value.dropFirst(2) }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
        return String(value)
    }
}

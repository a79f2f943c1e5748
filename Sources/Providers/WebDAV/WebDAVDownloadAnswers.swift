import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI

/// How a WebDAV server's download answers read, for `HTTPDownloader`.
struct WebDAVDownloadAnswers: HTTPDownloadDialect {
    let provider: WebDAVProvider
    let path: ItemPath
    /// The etag the download is held to (`If-Match`, or the `If` header a weak one is sent in).
    let wanted: String?
    /// Whether the answer's `OC-Checksum` is read (ownCloud and Nextcloud send the file's stored
    /// checksum with every GET, a range included: that of the whole file).
    var readsChecksums = false

    func item(from response: TransportResponse) -> Item {
        var item = Item(path: path, kind: .file)
        // The last value when there are several: a plugin that changes the bytes served (a
        // watermark) adds the checksum of what it serves after the stored one.
        if readsChecksums, let checksum = response.headers["oc-checksum"].last {
            item.digests = OwnCloudChecksum.parse(checksum)
        }
        item.etag = response.etag
        item.modified = response.headers.first(name: "last-modified").flatMap(HTTPDate.parse)
        item.mimeType = response.headers.first(name: "content-type")
        if response.status == 200 { item.size = response.contentLength }
        return item
    }

    /// Some servers (lighttpd 1.4) ignore If-Match on GET: an answer whose own ETag differs from
    /// the one asked for is refused before a byte reaches the sink.
    func isErrorPage(_ response: TransportResponse) -> Bool {
        guard let wanted, response.isSuccess, let etag = response.etag else { return false }
        return !WebDAVProvider.sameETag(etag, wanted)
    }

    func error(for response: TransportResponse, body: ByteBuffer, request: TransportRequest) -> ProviderError {
        if isErrorPage(response) {
            return ProviderError(
                .preconditionFailed, "\(path) has changed (etag \(response.etag ?? "none"))", httpStatus: response.status,
                request: request.summary)
        }
        return provider.errorSync(for: response, body: body, request: request, path: path)
    }

    /// An answer without a length (a PHP server's chunked GET) is checked against PROPFIND's size.
    func sizeOnServer() async -> Int64? {
        do {
            return try await provider.item(at: path).size
        } catch {
            return nil
        }
    }
}

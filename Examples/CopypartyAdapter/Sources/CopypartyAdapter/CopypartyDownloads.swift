import HTTPProviderKit
import NIOCore
import ProviderAPI

/// What `HTTPDownloader` needs to know about copyparty's downloads: the item is the one the
/// parent's listing described (copyparty's answer has no etag to read), and an error reads as
/// ``CopypartyFailure`` reads it. Ranges, `If-Range`, length checks and the sink's rules are the
/// downloader's, with their standard defaults.
struct CopypartyDownloads: HTTPDownloadDialect {
    /// The item being downloaded, from the parent's listing.
    let item: Item

    func item(from response: TransportResponse) -> Item { item }

    func error(for response: TransportResponse, body: ByteBuffer, request: TransportRequest) -> ProviderError {
        CopypartyFailure.error(for: response, body: body, request: request)
    }
}

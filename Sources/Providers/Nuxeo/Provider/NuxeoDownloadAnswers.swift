import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI

/// How Nuxeo's blob answers read, for `HTTPDownloader`: the item is the document's, errors are Nuxeo's JSON.
struct NuxeoDownloadAnswers: HTTPDownloadDialect {
    let item: Item

    func item(from response: TransportResponse) -> Item { item }

    func error(for response: TransportResponse, body: ByteBuffer, request: TransportRequest) -> ProviderError {
        NuxeoErrorMapper.error(status: response.status, body: Data(body.readableBytesView), request: request.summary, retryAfter: response.retryAfter)
    }
}

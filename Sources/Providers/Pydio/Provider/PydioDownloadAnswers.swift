import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI

/// How Pydio's download answers read, for `HTTPDownloader`: errors as XML or HTML pages with status
/// 200, and ranges off by one (see `PydioProvider.rangeHeader(_:size:)`).
struct PydioDownloadAnswers: HTTPDownloadDialect {
    let item: Item

    func item(from response: TransportResponse) -> Item { item }

    func isErrorPage(_ response: TransportResponse) -> Bool { PydioProvider.isErrorPage(response) }

    func error(for response: TransportResponse, body: ByteBuffer, request: TransportRequest) -> ProviderError {
        PydioProvider.downloadError(response, body: body, request: request.summary)
    }

    func rangeHeader(_ range: ByteRange, size: Int64?) -> String { PydioProvider.rangeHeader(range, size: size) }
}

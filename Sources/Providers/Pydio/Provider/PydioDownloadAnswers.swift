import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI

/// How Pydio's download answers read, for `HTTPDownloader`: errors as XML or HTML pages with status
/// 200, and ranges off by one (see `PydioProvider.rangeHeader(_:size:)`).
///
/// For a file read as a listing described it (`listed`), a whole answer whose `Content-Length` is
/// not the listed size, or whose `Last-Modified` is not the listed modified time (to the second,
/// as Pydio keeps it), or that is no attachment, is another file than the listing saw (changed
/// since, or a folder now): it is refused before any byte reaches the sink, as `preconditionFailed`.
struct PydioDownloadAnswers: HTTPDownloadDialect {
    let item: Item
    /// Whether `item` is what a listing said, to be checked against the answer.
    var listed = false

    func item(from response: TransportResponse) -> Item { item }

    func isErrorPage(_ response: TransportResponse) -> Bool { PydioProvider.isErrorPage(response) || changed(response) }

    func error(for response: TransportResponse, body: ByteBuffer, request: TransportRequest) -> ProviderError {
        if !PydioProvider.isErrorPage(response), changed(response) {
            return ProviderError(
                .preconditionFailed, "\(item.path) has changed since it was listed", httpStatus: response.status, request: request.summary)
        }
        return PydioProvider.downloadError(response, body: body, request: request.summary)
    }

    /// Whether a whole 200 answer is not the listed file.
    func changed(_ response: TransportResponse) -> Bool {
        guard listed, response.status == 200 else { return false }
        if response.headers.first(name: "content-disposition") == nil { return true }
        guard let size = item.size, response.contentLength == size else { return true }
        if let modified = item.modified, let header = response.headers.first(name: "last-modified") {
            guard let date = HTTPDate.parse(header), Int64(date.timeIntervalSince1970) == Int64(modified.timeIntervalSince1970.rounded(.down))
            else { return true }
        }
        return false
    }

    func rangeHeader(_ range: ByteRange, size: Int64?) -> String { PydioProvider.rangeHeader(range, size: size) }
}

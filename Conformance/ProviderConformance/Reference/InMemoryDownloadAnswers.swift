import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI

/// How the reference server's download answers read, for `HTTPDownloader`.
struct InMemoryDownloadAnswers: HTTPDownloadDialect {
    let path: ItemPath

    func item(from response: TransportResponse) -> Item {
        InMemoryWire.item(fromHeader: response.headers.first(name: InMemoryWire.itemHeader)) ?? Item(path: path, kind: .file, etag: response.etag)
    }

    func error(for response: TransportResponse, body: ByteBuffer, request: TransportRequest) -> ProviderError {
        InMemoryWire.error(for: response, body: body, request: request.summary)
    }
}

import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI

/// A download dialect whose every answer is a closure of the test's, so that each test states only
/// what its server does differently.
struct ScriptedDownloadAnswers: HTTPDownloadDialect {
    let errorFor: @Sendable (TransportResponse, ByteBuffer) -> ProviderError
    let itemFor: @Sendable (TransportResponse) -> Item
    var isError: (@Sendable (TransportResponse) -> Bool)?
    var spellRange: (@Sendable (ByteRange, Int64?) -> String)?
    var lookUpSize: (@Sendable () async -> Int64?)?

    func item(from response: TransportResponse) -> Item { itemFor(response) }
    func error(for response: TransportResponse, body: ByteBuffer, request: TransportRequest) -> ProviderError { errorFor(response, body) }
    func isErrorPage(_ response: TransportResponse) -> Bool { isError?(response) ?? false }
    func rangeHeader(_ range: ByteRange, size: Int64?) -> String { spellRange?(range, size) ?? range.httpHeaderValue }
    func sizeOnServer() async -> Int64? { await lookUpSize?() }
}

extension HTTPDownloader {
    /// The download with a ``ScriptedDownloadAnswers`` dialect.
    func download(
        _ request: TransportRequest, to sink: any DownloadSink, options: DownloadOptions, expected: Item?,
        errorFor: @escaping @Sendable (TransportResponse, ByteBuffer) -> ProviderError,
        itemFor: @escaping @Sendable (TransportResponse) -> Item,
        isError: (@Sendable (TransportResponse) -> Bool)? = nil,
        rangeHeader: (@Sendable (ByteRange, Int64?) -> String)? = nil,
        lookUpSize: (@Sendable () async -> Int64?)? = nil
    ) async throws -> DownloadResult {
        let answers = ScriptedDownloadAnswers(
            errorFor: errorFor, itemFor: itemFor, isError: isError, spellRange: rangeHeader, lookUpSize: lookUpSize)
        return try await download(request, to: sink, options: options, expected: expected, dialect: answers)
    }
}

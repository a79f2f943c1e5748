import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderKit

/// One download by ``HTTPDownloader``: the HTTP wiring of ProviderKit's `DownloadRequestPlan`.
/// The plan says what to ask (`Range`, `If-Range`) and what each answer means; this sends the
/// requests, reads the answers' status and headers into `DownloadAnswer`s, and pours the bodies
/// into the sink (ProviderKit's `DownloadDriver`), continuing a body that is cut.
struct HTTPDownload {
    let executor: RequestExecutor
    /// The request as the adapter gave it (a continuation starts from it).
    let original: TransportRequest
    /// The request as sent.
    var request: TransportRequest
    let sink: any DownloadSink
    let options: DownloadOptions
    let expected: Item?
    let dialect: any HTTPDownloadDialect
    /// What is asked and how the answers read.
    var plan: DownloadRequestPlan

    /// Made for errors only (redacting the URL for each download cost ~1 % of a copy of small files).
    var summary: String { request.summary }
    var wholeFile: Bool { plan.isWholeFile }

    mutating func run() async throws -> DownloadResult {
        ask()
        var response = try await executor.execute(request)
        var verdict = try await judge(response)
        if verdict == .restart {
            // A server that ignores If-Range sent other content than the partial bytes: start over.
            executor.logger.debug(
                "resume refused: the server's content is not that of the partial bytes; downloading from the start",
                metadata: ["request": "\(request.summary)", "partial": "\(plan.resumeFrom)"])
            plan.restart()
            ask()
            response = try await executor.execute(request)
            verdict = try await judge(response)
        }
        switch verdict {
        case .notModified: return await notModified(response)
        case .alreadyWhole(let total): return try await alreadyWhole(response, total: total)
        case .take(let offset, let end): return try await stream(response, from: offset, bodyEnd: end)
        case .cut(let bodyStart, let from, let to, let total):
            return try await cut(response, bodyStart: bodyStart, from: from, to: to, total: total)
        case .failure: throw await failure(response, request: request)
        case .restart:
            throw await refuse(response, ProviderError(.invalidResponse, "the server's content changed twice", request: summary))
        }
    }

    func spell(_ range: ByteRange) -> String { dialect.rangeHeader(range, size: expected?.size) }

    /// Puts the plan's range and validator (`Range`, `If-Range`) and the caller's preconditions on the request.
    mutating func ask() {
        request.headers.remove(name: "Range")
        request.headers.remove(name: "If-Range")
        if let range = plan.range { request.headers.replaceOrAdd(name: "Range", value: spell(range)) }
        if let validator = plan.validator { request.headers.replaceOrAdd(name: "If-Range", value: ResumeValidator.ifRange(validator)) }
        if let ifMatch = options.ifMatch { request.headers.replaceOrAdd(name: "If-Match", value: ifMatch) }
        if let ifNoneMatch = options.ifNoneMatch { request.headers.replaceOrAdd(name: "If-None-Match", value: ifNoneMatch) }
    }

    /// The plan's verdict on an answer; the body is dropped when the answer is refused.
    func judge(_ response: TransportResponse) async throws -> DownloadVerdict {
        do {
            return try plan.judge(answer(response, held: plan.validator), request: summary)
        } catch {
            await response.body.discard()
            throw error
        }
    }

    /// An HTTP answer in the plan's terms; its validator is read in the form of `held`.
    func answer(_ response: TransportResponse, held: String?) -> DownloadAnswer {
        let range = response.headers.first(name: "content-range").flatMap(ContentRange.init)
        let kind: DownloadAnswer.Kind
        switch response.status {
        case 200: kind = .whole
        case 206: kind = .partial(range.map { ServedRange(start: $0.start, end: $0.end, total: $0.total) })
        case 304: kind = .notModified
        case 416: kind = .rangeNotSatisfiable(total: range?.total)
        case 200...299: kind = .otherSuccess
        default: kind = .failure
        }
        return DownloadAnswer(
            kind, length: response.contentLength, etag: response.etag, validator: ResumeValidator.named(by: response, like: held),
            isErrorPage: response.isSuccess && dialect.isErrorPage(response))
    }

    /// Drops the answer's body and gives `error` back, to be thrown.
    func refuse(_ response: TransportResponse, _ error: ProviderError) async -> ProviderError {
        await response.body.discard()
        return error
    }

    /// The dialect's error for an answer that is not content, from up to 64 KiB of its body.
    func failure(_ response: TransportResponse, request: TransportRequest) async -> ProviderError {
        let body = (try? await response.body.collect(upTo: 64 << 10)) ?? ByteBuffer()
        return dialect.error(for: response, body: body, request: request)
    }

    /// A `304`: nothing is read and the sink is not touched.
    func notModified(_ response: TransportResponse) async -> DownloadResult {
        await response.body.discard()
        return DownloadResult(item: dialect.item(from: response), notModified: true, bytesReceived: 0)
    }

    /// A `416` to a resume whose sizes agree: the sink already holds everything.
    func alreadyWhole(_ response: TransportResponse, total: Int64) async throws -> DownloadResult {
        await response.body.discard()
        try await sink.begin(offset: total, expectedLength: 0, validator: expected?.etag)
        try await sink.finish()
        options.progress?(TransferProgress(completed: total, expected: total))
        return DownloadResult(item: dialect.item(from: response), bytesReceived: 0, offset: total)
    }

    /// A body wider than asked (a server that ignored `Range`, or answered wider): only the bytes
    /// asked for are kept, by ProviderKit's `DownloadDriver.cut`.
    func cut(_ response: TransportResponse, bodyStart: Int64, from: Int64, to: Int64?, total: Int64?) async throws -> DownloadResult {
        let kept = try await DownloadDriver.cut(
            response.body, bodyStart: bodyStart, from: from, to: to, validator: response.etag, into: sink, progress: options.progress,
            request: summary)
        var item = dialect.item(from: response)
        if let total { item.size = total }
        return DownloadResult(item: item, bytesReceived: kept, offset: from)
    }
}

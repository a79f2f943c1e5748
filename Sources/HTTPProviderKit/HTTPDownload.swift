import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderKit

/// One download by ``HTTPDownloader``, step by step: the `Range` it asks, the first answer (a
/// resume the server contradicts starts over), `304` and `416`, where the body lies in the content,
/// then the body poured into the sink (ProviderKit's `DownloadDriver.Pour`) and continued when cut.
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
    /// Where a resume of the sink's partial bytes starts (0: no resume).
    var resumeFrom: Int64 = 0
    /// The validator of the partial bytes a resume continues (see `ResumeValidator`).
    var heldValidator: String?

    /// Made for errors only (redacting the URL for each download cost ~1 % of a copy of small files).
    var summary: String { request.summary }
    var wholeFile: Bool { options.range == nil }

    /// Where an answer's body lies: the content (or the range asked) from an offset, or more than
    /// the range asked (a server that ignored `Range`, or answered wider), to be cut down.
    enum Served {
        case body(offset: Int64, end: Int64?)
        case wider(bodyStart: Int64, total: Int64?)
    }

    mutating func run() async throws -> DownloadResult {
        try await askForRange()
        let response = try await firstAnswer()
        if response.status == 304 { return await notModified(response) }
        if response.status == 416, resumeFrom > 0 { return try await alreadyWhole(response) }
        try await accept(response)
        switch try await served(response) {
        case .body(let offset, let end): return try await stream(response, from: offset, bodyEnd: end)
        case .wider(let bodyStart, let total): return try await slice(response, bodyStart: bodyStart, total: total)
        }
    }

    func spell(_ range: ByteRange) -> String { dialect.rangeHeader(range, size: expected?.size) }

    /// Drops the answer's body and gives `error` back, to be thrown.
    func refuse(_ response: TransportResponse, _ error: ProviderError) async -> ProviderError {
        await response.body.discard()
        return error
    }

    /// The `Range` asked: the rest of the sink's partial bytes under their validator (`If-Range`),
    /// else the caller's range; and the caller's preconditions. Never a blind resume: partial bytes
    /// without a validator the server can check are not continued (the sink drops them at offset 0).
    mutating func askForRange() async throws {
        if options.resume, options.range == nil, let point = try await sink.resumePoint(), point.length > 0,
            let validator = point.validator, let ifRange = ResumeValidator.ifRange(validator)
        {
            resumeFrom = point.length
            heldValidator = validator
            request.headers.replaceOrAdd(name: "Range", value: spell(.from(point.length)))
            request.headers.replaceOrAdd(name: "If-Range", value: ifRange)
        } else if let range = options.range {
            request.headers.replaceOrAdd(name: "Range", value: spell(range))
        }
        if let ifMatch = options.ifMatch { request.headers.replaceOrAdd(name: "If-Match", value: ifMatch) }
        if let ifNoneMatch = options.ifNoneMatch { request.headers.replaceOrAdd(name: "If-None-Match", value: ifNoneMatch) }
    }

    /// The first answer; a `206` to a resume that contradicts the held validator (a server that
    /// ignores `If-Range`) is of other content than the partial bytes: the download starts over.
    mutating func firstAnswer() async throws -> TransportResponse {
        let response = try await executor.execute(request)
        guard resumeFrom > 0, response.status == 206, let heldValidator, ResumeValidator.contradicts(heldValidator, response) else {
            return response
        }
        await response.body.discard()
        executor.logger.debug(
            "resume refused: the server's content is not that of the partial bytes; downloading from the start",
            metadata: ["request": "\(request.summary)", "partial": "\(resumeFrom)"])
        resumeFrom = 0
        request.headers.remove(name: "Range")
        request.headers.remove(name: "If-Range")
        return try await executor.execute(request)
    }

    /// A `304`: nothing is read and the sink is not touched.
    func notModified(_ response: TransportResponse) async -> DownloadResult {
        await response.body.discard()
        return DownloadResult(item: dialect.item(from: response), notModified: true, bytesReceived: 0)
    }

    /// A `416` to a resume: the sink already holds everything, if the server's length agrees.
    func alreadyWhole(_ response: TransportResponse) async throws -> DownloadResult {
        let total = response.headers.first(name: "content-range").flatMap(ContentRange.init)?.total
        await response.body.discard()
        guard total == resumeFrom, expected?.size.map({ $0 == resumeFrom }) ?? true else {
            throw ProviderError(.conflict, "the partial download no longer matches the file", httpStatus: 416, request: summary)
        }
        try await sink.begin(offset: resumeFrom, expectedLength: 0, validator: expected?.etag)
        try await sink.finish()
        options.progress?(TransferProgress(completed: resumeFrom, expected: resumeFrom))
        return DownloadResult(item: dialect.item(from: response), bytesReceived: 0, offset: resumeFrom)
    }

    /// Refuses what is not content: another status, an error page, a negative length.
    func accept(_ response: TransportResponse) async throws {
        guard response.status == 200 || response.status == 206, !dialect.isErrorPage(response) else {
            let body = (try? await response.body.collect(upTo: 64 << 10)) ?? ByteBuffer()
            throw dialect.error(for: response, body: body, request: request)
        }
        if let length = response.contentLength, length < 0 {
            throw await refuse(response, ProviderError(.invalidResponse, "a negative Content-Length", httpStatus: response.status, request: summary))
        }
    }

    /// Where the answer's body lies in the content.
    func served(_ response: TransportResponse) async throws -> Served {
        guard response.status == 206 else {
            // A 200 to a range request: the server ignored the range and sent everything.
            if options.range != nil, resumeFrom == 0 { return .wider(bodyStart: 0, total: response.contentLength) }
            return .body(offset: 0, end: response.contentLength)
        }
        let range = try await servedRange(response)
        if let requested = options.range, resumeFrom == 0, let (lower, upper) = requested.bounds(inContentOf: range.total),
            range.start != lower || (upper.map { range.end != $0 } ?? false)
        {
            // A wider range than asked for (sabre 1.8 answers bytes=0-0 with everything): cut it down.
            guard range.start <= lower, upper.map({ range.end >= $0 }) ?? true else {
                throw await refuse(
                    response,
                    ProviderError(
                        .invalidResponse, "the server sent bytes \(range.start)-\(range.end), not the range asked for", httpStatus: 206,
                        request: summary))
            }
            return .wider(bodyStart: range.start, total: range.total)
        }
        return .body(offset: range.start, end: range.end + 1)
    }

    /// The `Content-Range` of a `206`: only for a range that was asked, starting where a resume
    /// asked and reaching the end of the content (or the file would be short).
    func servedRange(_ response: TransportResponse) async throws -> ContentRange {
        guard resumeFrom > 0 || options.range != nil else {
            // Never asked: writing it at its offset would put it beside nothing.
            throw await refuse(response, ProviderError(.invalidResponse, "206 for a range that was not asked", httpStatus: 206, request: summary))
        }
        let range = try await contentRange(of: response, request: summary)
        guard resumeFrom > 0 else { return range }
        try await requireRest(range, from: resumeFrom, of: response, request: summary)
        return range
    }

    /// The answer's checked `Content-Range` (see `HTTPDownloader.contentRange(of:summary:)`); the body is dropped when it is not.
    func contentRange(of response: TransportResponse, request: String?) async throws -> ContentRange {
        do {
            return try HTTPDownloader.contentRange(of: response, summary: request)
        } catch {
            await response.body.discard()
            throw error
        }
    }

    /// A `206` that continues the content at `position` must start there and reach the content's
    /// end, or the file would be short.
    func requireRest(_ range: ContentRange, from position: Int64, of response: TransportResponse, request: String?) async throws {
        if range.start != position {
            throw await refuse(
                response,
                ProviderError(
                    .invalidResponse, "asked to resume at \(position), the server sent from \(range.start)", httpStatus: 206, request: request))
        }
        if let total = range.total, range.end != total - 1 {
            throw await refuse(
                response,
                ProviderError(
                    .invalidResponse, "the server sent bytes \(range.start)-\(range.end) of \(total), not the rest of the file", httpStatus: 206,
                    request: request))
        }
    }
}

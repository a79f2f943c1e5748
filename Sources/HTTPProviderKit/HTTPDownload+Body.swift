import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderKit

/// Where a streamed download stands: the byte reached, the sizes known for the content and where
/// the current answer's body must end, and what a continuation of a cut body is held to.
struct HTTPBodyState {
    /// The next byte's place in the content.
    var position: Int64
    /// Where the current answer's body must end in the content, as the answer declares it.
    var end: Int64?
    /// The sizes known for the whole content, the answer's own first (only for a whole-file download).
    var totals: [Int64]
    /// The total of the first answer's `Content-Range`, if any.
    let firstRangeTotal: Int64?
    /// Whether the server has shown it serves ranges.
    var rangesShown: Bool
    /// The first answer's etag.
    let etag: String?
    /// What a continuation (and a later resume) is held to: never continued without one.
    let validator: String?
    var resumes = 0
    /// Whether the dialect was asked for the size of a length-less answer.
    var looked = false

    /// The smallest end any known size allows: a byte past it is more than declared.
    var ceiling: Int64? { (totals + [end].compactMap { $0 }).min() }
    /// The largest end any known size asks for: a body ending before it was cut.
    var wanted: Int64? { (totals + [end].compactMap { $0 }).max() }
    /// What progress counts toward: the whole content when known, else where this body ends.
    var progressTotal: Int64? { totals.first ?? firstRangeTotal ?? end }
}

extension HTTPDownload {
    /// Streams a body that starts at `offset` in the content into the sink, continuing it with a
    /// `Range` request when it is cut, and checks it against every size known for it.
    func stream(_ response: TransportResponse, from offset: Int64, bodyEnd: Int64?) async throws -> DownloadResult {
        let item = dialect.item(from: response)
        var state = HTTPBodyState(
            position: offset, end: bodyEnd, totals: wholeFileSizes(of: response, item: item),
            firstRangeTotal: response.status == 206 ? response.headers.first(name: "content-range").flatMap(ContentRange.init)?.total : nil,
            rangesShown: response.status == 206 || HTTPDownloader.acceptsRanges(response), etag: response.etag,
            validator: ResumeValidator.of(response, expectedETag: expected?.etag))
        // A range download is a body of its own (the sink holds only the range); a resumed one continues what the sink holds.
        try await sink.begin(offset: wholeFile ? offset : 0, expectedLength: bodyEnd.map { $0 - offset }, validator: state.validator)
        // Digest check only when the whole content passes through this call, before the sink may finish.
        var digest = options.verifyDigest && offset == 0 && wholeFile
            ? DigestCheck(declared: item.digests.isEmpty ? (expected?.digests ?? [:]) : item.digests) : nil
        do {
            options.progress?(TransferProgress(completed: offset, expected: state.progressTotal))
            var body = response.body
            while let cut = try await pour(body, state: &state, digest: &digest) {
                body = try await continuation(after: cut, state: &state)
            }
            try await digest?.verify(request: summary)
            try await sink.finish()
        } catch {
            await sink.fail()
            throw ProviderError.wrap(error, request: summary)
        }
        var result = item
        if result.size == nil, wholeFile, let total = state.totals.first { result.size = total }
        if result.size == nil, let total = state.firstRangeTotal { result.size = total }
        return DownloadResult(item: result, bytesReceived: state.position - offset, offset: offset)
    }

    /// The sizes known for the whole content, the answer's own first. The expected size is of the
    /// content the adapter saw: when the answer's etag says the file has changed since, it no
    /// longer binds (the answer's own sizes still do).
    func wholeFileSizes(of response: TransportResponse, item: Item) -> [Int64] {
        guard wholeFile else { return [] }
        var totals: [Int64] = []
        if response.status == 206 {
            if let total = response.headers.first(name: "content-range").flatMap(ContentRange.init)?.total { totals.append(total) }
        } else if let length = response.contentLength {
            totals.append(length)
        }
        if let size = expected?.size, size >= 0, !HTTPDownloader.changed(from: expected?.etag, to: response.etag) { totals.append(size) }
        if let size = item.size, size >= 0 { totals.append(size) }
        return totals
    }

    /// Pours one answer's body into the sink; the error that cut it (a network error, or a body
    /// that ended short of a known size), or `nil` when it is all there.
    func pour(_ body: HTTPResponseBody, state: inout HTTPBodyState, digest: inout DigestCheck?) async throws -> ProviderError? {
        var pour = DownloadDriver.Pour(
            sink: sink, position: state.position, ceiling: state.ceiling, progressTotal: state.progressTotal, request: summary)
        let cut = try await pour.run(body, digest: &digest, progress: options.progress)
        state.position = pour.position
        if let cut { return cut }
        try await lookUpSizeIfUnknown(&state)
        guard let wanted = state.wanted, state.position < wanted else { return nil }
        return DownloadDriver.shortfall(state.position, of: wanted, request: summary)
    }

    /// A length-less whole-file answer: asks the dialect how long the file is.
    func lookUpSizeIfUnknown(_ state: inout HTTPBodyState) async throws {
        guard wholeFile, state.totals.isEmpty, state.end == nil, !state.looked else { return }
        state.looked = true
        guard let size = await dialect.sizeOnServer(), size >= 0 else { return }
        state.totals.append(size)
        if state.position > size { throw DownloadDriver.overrun(size, request: summary) }
    }

    /// Continues a cut whole-file body from the byte reached, only if the server has shown it
    /// serves ranges and the content has a strong validator (sent as `If-Range`), up to
    /// `DownloadOptions.maxResumes` times; otherwise the cut stands.
    func continuation(after cut: ProviderError, state: inout HTTPBodyState) async throws -> HTTPResponseBody {
        guard wholeFile, state.resumes < options.maxResumes, state.rangesShown, let validator = state.validator,
            let ifRange = ResumeValidator.ifRange(validator)
        else { throw cut }
        state.resumes += 1
        executor.logger.debug(
            "continuing a cut download", metadata: ["request": "\(summary)", "from": "\(state.position)", "error": "\(cut)"])
        var again = original
        again.headers.replaceOrAdd(name: "Range", value: spell(.from(state.position)))
        again.headers.replaceOrAdd(name: "If-Range", value: ifRange)
        if let ifMatch = options.ifMatch { again.headers.replaceOrAdd(name: "If-Match", value: ifMatch) }
        let answer = try await executor.execute(again)
        let range = try await continuedRange(answer, after: cut, state: state, validator: validator)
        state.rangesShown = true
        if let total = range.total, !state.totals.contains(total) { state.totals.append(total) }
        state.end = range.end + 1
        try await sink.begin(offset: state.position, expectedLength: range.end + 1 - state.position, validator: validator)
        return answer.body
    }

    /// Checks the answer to a continuation: a `206` of the same content from exactly the byte
    /// reached to its end. Anything else ends the download (the body is dropped).
    func continuedRange(_ answer: TransportResponse, after cut: ProviderError, state: HTTPBodyState, validator: String) async throws -> ContentRange {
        let summary = cut.request
        let changed = ProviderError(.conflict, "the file changed on the server while it was downloaded", httpStatus: answer.status, request: summary)
        let differs = state.etag.map { kept in answer.etag.map { $0 != kept } ?? false } ?? ResumeValidator.contradicts(validator, answer)
        if differs, answer.status == 200 || answer.status == 206 { throw await refuse(answer, changed) }
        switch answer.status {
        case 206 where !dialect.isErrorPage(answer): break
        case 200...299, 416: throw await refuse(answer, cut)  // the range was not served: the cut stands
        default:
            let body = (try? await answer.body.collect(upTo: 64 << 10)) ?? ByteBuffer()
            throw dialect.error(for: answer, body: body, request: request)
        }
        let range = try await contentRange(of: answer, request: summary)
        // Another total is another content (checked once the range starts where it was asked).
        if range.start == state.position, let total = range.total, state.totals.contains(where: { $0 != total }) {
            throw await refuse(answer, changed)
        }
        try await requireRest(range, from: state.position, of: answer, request: summary)
        return range
    }

    /// For servers that answer a range request with more than the range (the whole body as 200,
    /// or a wider 206): keeps only the bytes asked for. `bodyStart` is where the body begins in the content.
    func slice(_ response: TransportResponse, bodyStart: Int64, total: Int64?) async throws -> DownloadResult {
        guard let range = options.range, let (lower, upper) = range.bounds(inContentOf: total) else {
            throw await refuse(response, ProviderError(.unsupported, "the server ignores ranges and did not send a length", request: summary))
        }
        let wanted = upper.map { $0 - lower + 1 }
        try await sink.begin(offset: 0, expectedLength: wanted, validator: response.etag)
        var kept: Int64 = 0
        do {
            var position = bodyStart
            for try await var piece in response.body {
                try Task.checkCancellation()
                let pieceStart = position
                position += Int64(piece.readableBytes)
                let from = max(lower, pieceStart)
                let to = min(upper.map { $0 + 1 } ?? position, position)
                guard to > from else { continue }
                piece.moveReaderIndex(forwardBy: Int(from - pieceStart))
                if let part = piece.readSlice(length: Int(to - from)) {
                    try await sink.write(part)
                    kept += Int64(part.readableBytes)
                    options.progress?(TransferProgress(completed: kept, expected: wanted))
                }
            }
            if let wanted, kept != wanted {
                throw ProviderError(.network, "the body ended after \(kept) of the \(wanted) bytes asked for", request: summary)
            }
            try await sink.finish()
        } catch {
            await sink.fail()
            throw ProviderError.wrap(error, request: summary)
        }
        var item = dialect.item(from: response)
        if let total { item.size = total }
        return DownloadResult(item: item, bytesReceived: kept, offset: lower)
    }
}

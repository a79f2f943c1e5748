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

    /// Continues a cut whole-file body from the byte reached, when the plan allows it (see
    /// `DownloadRequestPlan.continuation(at:resumes:rangesShown:validator:)`); otherwise the cut stands.
    func continuation(after cut: ProviderError, state: inout HTTPBodyState) async throws -> HTTPResponseBody {
        guard
            let ask = plan.continuation(
                at: state.position, resumes: state.resumes, rangesShown: state.rangesShown, validator: state.validator)
        else { throw cut }
        state.resumes += 1
        executor.logger.debug(
            "continuing a cut download", metadata: ["request": "\(summary)", "from": "\(state.position)", "error": "\(cut)"])
        var again = original
        again.headers.replaceOrAdd(name: "Range", value: spell(ask.range))
        again.headers.replaceOrAdd(name: "If-Range", value: ResumeValidator.ifRange(ask.validator))
        if let ifMatch = options.ifMatch { again.headers.replaceOrAdd(name: "If-Match", value: ifMatch) }
        let answer = try await executor.execute(again)
        let served: ServedRange?
        do {
            served = try plan.judgeContinuation(
                self.answer(answer, held: ask.validator), at: state.position, firstETag: state.etag, validator: ask.validator,
                totals: state.totals, cut: cut)
        } catch {
            await answer.body.discard()
            throw error
        }
        guard let range = served else { throw await failure(answer, request: request) }
        state.rangesShown = true
        if let total = range.total, !state.totals.contains(total) { state.totals.append(total) }
        state.end = range.end + 1
        try await sink.begin(offset: state.position, expectedLength: range.end + 1 - state.position, validator: ask.validator)
        return answer.body
    }
}

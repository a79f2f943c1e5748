import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderKit

/// The streaming download loop every HTTP adapter shares: range and resume
/// headers, `206`/`416` handling, progress, cancellation, length and digest checks,
/// and the sink's begin/write/finish/fail protocol.
public struct HTTPDownloader: Sendable {
    /// Sends the requests.
    public let executor: RequestExecutor

    /// Creates a downloader.
    public init(executor: RequestExecutor) { self.executor = executor }

    /// Downloads `request` (a `GET`) into `sink`.
    ///
    /// The body is checked against every size known for it: the answer's `Content-Length`, its
    /// `Content-Range` (extent and total), and, when the whole file is downloaded, the size the
    /// provider reported (`expected?.size`, or the size `itemFor` reads from the answer). A body
    /// that ends short of any of them is `ProviderError.Code.network` ("the body ended after N
    /// of M bytes"); one that goes past any of them is `ProviderError.Code.integrity` ("the
    /// server sent more than the M bytes it declared"). Either way the sink fails, so nothing is
    /// left under a `FileSink`'s final name.
    ///
    /// `DownloadOptions.resume` continues the sink's partial bytes only under the validator they
    /// were kept with (`ResumePoint.validator`), sent as `If-Range`; partial bytes without one are
    /// dropped and the whole file is downloaded, and a `200` (the content changed) or a `206` that
    /// contradicts the validator starts over from byte 0. Never a splice of two contents.
    ///
    /// A `206` is accepted only for a range that was asked (`DownloadOptions.resume` or
    /// `DownloadOptions.range`), starting where it was asked. A body cut in the middle is
    /// continued with a `Range` request up to `DownloadOptions.maxResumes` times when the
    /// server has shown it serves ranges and the content has a strong validator, sent as
    /// `If-Range` (a strong etag, or a strong `Last-Modified` date: see `ResumeValidator`); the sink then gets
    /// `DownloadSink.begin(offset:expectedLength:validator:)` again with the bytes it holds,
    /// and progress goes on from there.
    ///
    /// - Parameters:
    ///   - request: the `GET` of the content.
    ///   - sink: where the body goes.
    ///   - options: the range, resume, preconditions, digest check and progress asked for.
    ///   - expected: what the adapter knows of the item (size, etag, digests), if anything.
    ///   - errorFor: maps a non-2xx response (with up to 64 KiB of its body) to the error to throw.
    ///   - itemFor: builds the item from the response headers.
    ///   - isError: says whether a 2xx answer is an error in disguise (a server that answers a
    ///     download with an XML or HTML error page and status 200); its body is then read for `errorFor`.
    ///   - rangeHeader: spells a range for this server's `Range` header, given the content's size
    ///     when known (`expected?.size`); by default the standard spelling. For servers whose ranges
    ///     are off by one: a range answered wider than asked is cut down to what was asked.
    ///   - lookUpSize: asked for the item's size (a metadata request) only when a whole-file body
    ///     has ended and no size at all was known for it (no `Content-Length`, no `Content-Range`,
    ///     no `expected?.size`), so that a length-less answer cut short is still caught; `nil`
    ///     when it cannot be told.
    public func download(
        _ request: TransportRequest, to sink: any DownloadSink, options: DownloadOptions, expected: Item?,
        errorFor: @Sendable (TransportResponse, ByteBuffer) -> ProviderError,
        itemFor: @Sendable (TransportResponse) -> Item,
        isError: (@Sendable (TransportResponse) -> Bool)? = nil,
        rangeHeader: (@Sendable (ByteRange, Int64?) -> String)? = nil,
        lookUpSize: (@Sendable () async -> Int64?)? = nil
    ) async throws -> DownloadResult {
        let original = request
        var request = request
        var resumeFrom: Int64 = 0
        let spell: @Sendable (ByteRange) -> String = { range in rangeHeader?(range, expected?.size) ?? range.httpHeaderValue }
        /// The validator of the partial bytes a resume continues (see `ResumeValidator`).
        var heldValidator: String?
        if options.resume, options.range == nil, let point = try await sink.resumePoint(), point.length > 0,
            let validator = point.validator, let ifRange = ResumeValidator.ifRange(validator)
        {
            // Never blind: partial bytes without a validator the server can check are not
            // continued (the whole file is asked for, and the sink drops them at offset 0).
            resumeFrom = point.length
            heldValidator = validator
            request.headers.replaceOrAdd(name: "Range", value: spell(.from(point.length)))
            request.headers.replaceOrAdd(name: "If-Range", value: ifRange)
        } else if let range = options.range {
            request.headers.replaceOrAdd(name: "Range", value: spell(range))
        }
        if let ifMatch = options.ifMatch { request.headers.replaceOrAdd(name: "If-Match", value: ifMatch) }
        if let ifNoneMatch = options.ifNoneMatch { request.headers.replaceOrAdd(name: "If-None-Match", value: ifNoneMatch) }

        var response = try await executor.execute(request)
        if resumeFrom > 0, response.status == 206, let heldValidator, ResumeValidator.contradicts(heldValidator, response) {
            // The server ignored If-Range: these bytes are of other content than the partial ones. Start over.
            await response.body.discard()
            executor.logger.debug(
                "resume refused: the server's content is not that of the partial bytes; downloading from the start",
                metadata: ["request": "\(request.summary)", "partial": "\(resumeFrom)"])
            resumeFrom = 0
            request.headers.remove(name: "Range")
            request.headers.remove(name: "If-Range")
            response = try await executor.execute(request)
        }
        // Made for an error only: redacting the URL for each download cost ~1 % of a copy of small files.
        lazy var summary = request.summary

        if response.status == 304 {
            await response.body.discard()
            return DownloadResult(item: itemFor(response), notModified: true, bytesReceived: 0)
        }
        if response.status == 416, resumeFrom > 0 {
            // The sink already holds everything, if the server's length agrees.
            let total = response.headers.first(name: "content-range").flatMap(ContentRange.init)?.total
            await response.body.discard()
            if total == resumeFrom, expected?.size.map({ $0 == resumeFrom }) ?? true {
                try await sink.begin(offset: resumeFrom, expectedLength: 0, validator: expected?.etag)
                try await sink.finish()
                options.progress?(TransferProgress(completed: resumeFrom, expected: resumeFrom))
                return DownloadResult(item: itemFor(response), bytesReceived: 0, offset: resumeFrom)
            }
            throw ProviderError(.conflict, "the partial download no longer matches the file", httpStatus: 416, request: summary)
        }
        guard response.status == 200 || response.status == 206, !(isError?(response) ?? false) else {
            let body = (try? await response.body.collect(upTo: 64 << 10)) ?? ByteBuffer()
            throw errorFor(response, body)
        }
        if let length = response.contentLength, length < 0 {
            await response.body.discard()
            throw ProviderError(.invalidResponse, "a negative Content-Length", httpStatus: response.status, request: summary)
        }

        var offset: Int64 = 0
        /// Where this answer's body must end in the content, as the answer declares it.
        var bodyEnd: Int64? = response.contentLength
        if response.status == 206 {
            guard resumeFrom > 0 || options.range != nil else {
                // Never asked: writing it at its offset would put it beside nothing.
                await response.body.discard()
                throw ProviderError(.invalidResponse, "206 for a range that was not asked", httpStatus: 206, request: summary)
            }
            let range: ContentRange
            do {
                range = try Self.contentRange(of: response, summary: summary)
            } catch {
                await response.body.discard()
                throw error
            }
            offset = range.start
            bodyEnd = range.end + 1
            if resumeFrom > 0 {
                if offset != resumeFrom {
                    await response.body.discard()
                    throw ProviderError(
                        .invalidResponse, "asked to resume at \(resumeFrom), the server sent from \(offset)", httpStatus: 206, request: summary)
                }
                // A resumed answer must reach the end of the content, or the file would be short.
                if let total = range.total, range.end != total - 1 {
                    await response.body.discard()
                    throw ProviderError(
                        .invalidResponse, "the server sent bytes \(range.start)-\(range.end) of \(total), not the rest of the file",
                        httpStatus: 206, request: summary)
                }
            }
            if let requested = options.range, resumeFrom == 0,
                let (lower, upper) = HTTPDownloader.bounds(of: requested, total: range.total),
                range.start != lower || (upper.map { range.end != $0 } ?? false)
            {
                // A wider range than asked for (sabre 1.8 answers bytes=0-0 with everything): cut it down.
                guard range.start <= lower, upper.map({ range.end >= $0 }) ?? true else {
                    await response.body.discard()
                    throw ProviderError(.invalidResponse, "the server sent bytes \(range.start)-\(range.end), not the range asked for", httpStatus: 206, request: summary)
                }
                return try await sliceBody(
                    response, range: requested, bodyStart: range.start, total: range.total, sink: sink, options: options,
                    itemFor: itemFor, summary: summary)
            }
        } else if let requested = options.range, resumeFrom == 0 {
            // The server ignored the range and sent everything: honour the caller's range ourselves.
            return try await sliceBody(
                response, range: requested, bodyStart: 0, total: response.contentLength, sink: sink, options: options,
                itemFor: itemFor, summary: summary)
        }
        let item = itemFor(response)
        let wholeFile = options.range == nil
        let firstRangeTotal = response.status == 206 ? response.headers.first(name: "content-range").flatMap(ContentRange.init)?.total : nil
        // The sizes known for the whole content, the answer's own first.
        var totals: [Int64] = []
        if wholeFile {
            if response.status == 206 {
                if let total = firstRangeTotal { totals.append(total) }
            } else if let length = response.contentLength {
                totals.append(length)
            }
            // The provider's size is of the content it saw: when the answer's etag says the file has
            // changed since, that size no longer binds (the answer's own sizes still do).
            if let size = expected?.size, size >= 0, !Self.changed(from: expected?.etag, to: response.etag) { totals.append(size) }
            if let size = item.size, size >= 0 { totals.append(size) }
        }
        // What progress counts toward: the whole content when known, else where this body ends.
        var progressTotal: Int64? { totals.first ?? firstRangeTotal ?? bodyEnd }
        let firstEtag = response.etag
        // What a continuation (and a later resume) is held to: never continued without one.
        let strongValidator = ResumeValidator.of(response, expectedETag: expected?.etag)
        var rangesShown = response.status == 206 || Self.acceptsRanges(response)
        // A range download is a body of its own (the sink holds only the range); a resumed one continues what the sink holds.
        try await sink.begin(offset: wholeFile ? offset : 0, expectedLength: bodyEnd.map { $0 - offset }, validator: strongValidator)

        // Digest check only when the whole content passes through this call. It is computed beside
        // the transfer (another core), and checked before the sink may finish.
        var digestCheck: DigestCheck?
        if options.verifyDigest, offset == 0, wholeFile {
            digestCheck = DigestCheck(declared: item.digests.isEmpty ? (expected?.digests ?? [:]) : item.digests)
        }

        var position = offset
        var body = response.body
        var resumes = 0
        var looked = false
        do {
            options.progress?(TransferProgress(completed: offset, expected: progressTotal))
            while true {
                // The smallest end any known size allows, for "more than declared" as the bytes come.
                let ceiling = (totals + [bodyEnd].compactMap { $0 }).min()
                var cut: ProviderError?
                var iterator = body.makeAsyncIterator()
                while true {
                    try Task.checkCancellation()
                    let next: ByteBuffer?
                    do {
                        next = try await iterator.next()
                    } catch {
                        let wrapped = ProviderError.wrap(error, request: summary)
                        guard wrapped.code == .network else { throw wrapped }
                        cut = wrapped
                        break
                    }
                    guard let piece = next else { break }
                    let count = Int64(piece.readableBytes)
                    if let ceiling, position + count > ceiling {
                        throw ProviderError(.integrity, "the server sent more than the \(ceiling) bytes it declared", request: summary)
                    }
                    await digestCheck?.update(piece)
                    try await sink.write(piece)
                    position += count
                    options.progress?(TransferProgress(completed: position, expected: progressTotal))
                }
                try Task.checkCancellation()
                if cut == nil {
                    if wholeFile, totals.isEmpty, bodyEnd == nil, !looked, let lookUpSize {
                        // A length-less answer: ask the provider how long the file is.
                        looked = true
                        if let size = await lookUpSize(), size >= 0 {
                            totals.append(size)
                            if position > size {
                                throw ProviderError(.integrity, "the server sent more than the \(size) bytes it declared", request: summary)
                            }
                        }
                    }
                    if let wanted = (totals + [bodyEnd].compactMap { $0 }).max(), position < wanted {
                        cut = ProviderError(.network, "the body ended after \(position) of \(wanted) bytes", request: summary)
                    }
                }
                guard let cut else { break }
                guard wholeFile, resumes < options.maxResumes, rangesShown, let strongValidator,
                    let ifRange = ResumeValidator.ifRange(strongValidator)
                else {
                    throw cut
                }
                resumes += 1
                executor.logger.debug(
                    "continuing a cut download", metadata: ["request": "\(summary)", "from": "\(position)", "error": "\(cut)"])
                // Continue from the byte reached, and only if the content is still the same.
                var again = original
                again.headers.replaceOrAdd(name: "Range", value: spell(.from(position)))
                again.headers.replaceOrAdd(name: "If-Range", value: ifRange)
                if let ifMatch = options.ifMatch { again.headers.replaceOrAdd(name: "If-Match", value: ifMatch) }
                let answer = try await executor.execute(again)
                let range = try await continuation(
                    answer, at: position, after: cut, etag: firstEtag, validator: strongValidator, totals: totals, errorFor: errorFor,
                    isError: isError)
                rangesShown = true
                if let total = range.total, !totals.contains(total) { totals.append(total) }
                bodyEnd = range.end + 1
                try await sink.begin(offset: position, expectedLength: range.end + 1 - position, validator: strongValidator)
                body = answer.body
            }
            try await digestCheck?.verify(request: summary)
            try await sink.finish()
        } catch {
            await sink.fail()
            throw ProviderError.wrap(error, request: summary)
        }
        var result = item
        if result.size == nil, wholeFile, let total = totals.first { result.size = total }
        if result.size == nil, let firstRangeTotal { result.size = firstRangeTotal }
        return DownloadResult(item: result, bytesReceived: position - offset, offset: offset)
    }

    /// Checks the answer to an automatic resume at `position`: a `206` of the same content from
    /// exactly that byte to its end. Anything else ends the download (the body is dropped).
    private func continuation(
        _ answer: TransportResponse, at position: Int64, after cut: ProviderError, etag: String?, validator: String, totals: [Int64],
        errorFor: @Sendable (TransportResponse, ByteBuffer) -> ProviderError, isError: (@Sendable (TransportResponse) -> Bool)?
    ) async throws -> ContentRange {
        let summary = cut.request
        let changed = ProviderError(.conflict, "the file changed on the server while it was downloaded", httpStatus: answer.status, request: summary)
        let differs = etag.map { kept in answer.etag.map { $0 != kept } ?? false } ?? ResumeValidator.contradicts(validator, answer)
        if differs, answer.status == 200 || answer.status == 206 {
            await answer.body.discard()
            throw changed
        }
        switch answer.status {
        case 206 where !(isError?(answer) ?? false):
            break
        case 200...299:
            // The range was not served (a 200 of the same content, a 416): the cut stands.
            await answer.body.discard()
            throw cut
        case 416:
            await answer.body.discard()
            throw cut
        default:
            let body = (try? await answer.body.collect(upTo: 64 << 10)) ?? ByteBuffer()
            throw errorFor(answer, body)
        }
        let range: ContentRange
        do {
            range = try Self.contentRange(of: answer, summary: summary)
        } catch {
            await answer.body.discard()
            throw error
        }
        var problem: ProviderError?
        if range.start != position {
            problem = ProviderError(
                .invalidResponse, "asked to resume at \(position), the server sent from \(range.start)", httpStatus: 206, request: summary)
        } else if let total = range.total, totals.contains(where: { $0 != total }) {
            problem = changed
        } else if let total = range.total, range.end != total - 1 {
            problem = ProviderError(
                .invalidResponse, "the server sent bytes \(range.start)-\(range.end) of \(total), not the rest of the file",
                httpStatus: 206, request: summary)
        }
        if let problem {
            await answer.body.discard()
            throw problem
        }
        return range
    }

    /// The `Content-Range` of a `206`, checked against itself and the answer's `Content-Length`.
    static func contentRange(of response: TransportResponse, summary: String?) throws -> ContentRange {
        guard let range = response.headers.first(name: "content-range").flatMap(ContentRange.init), range.end >= range.start else {
            throw ProviderError(.invalidResponse, "206 without a valid Content-Range", httpStatus: 206, request: summary)
        }
        if let total = range.total, range.end >= total {
            throw ProviderError(
                .invalidResponse, "Content-Range bytes \(range.start)-\(range.end) lies past the total of \(total)", httpStatus: 206,
                request: summary)
        }
        if let length = response.contentLength, length != range.end - range.start + 1 {
            throw ProviderError(
                .invalidResponse, "Content-Length \(length) does not match Content-Range bytes \(range.start)-\(range.end)",
                httpStatus: 206, request: summary)
        }
        return range
    }

    /// Whether the answer says the server serves byte ranges.
    static func acceptsRanges(_ response: TransportResponse) -> Bool {
        response.headers["accept-ranges"].contains { HTTPHeaderValue.listContains($0, token: "bytes") }
    }

    /// Whether two etags, both known, name different content (a weak and a strong tag of the same
    /// value are the same content: Apache turns a weak etag strong within a second).
    static func changed(from before: String?, to after: String?) -> Bool {
        guard let before, let after else { return false }
        return !ETag.weaklyEqual(before, after)
    }

    /// The first and last byte `range` asks for, in content of `total` bytes (ProviderKit's rule).
    static func bounds(of range: ByteRange, total: Int64?) -> (lower: Int64, upper: Int64?)? {
        range.bounds(inContentOf: total)
    }

    /// For servers that answer a range request with more than the range (the whole body as 200,
    /// or a wider 206): keep only the bytes asked for. `bodyStart` is where the body begins in the content.
    private func sliceBody(
        _ response: TransportResponse, range: ByteRange, bodyStart: Int64, total: Int64?, sink: any DownloadSink,
        options: DownloadOptions, itemFor: @Sendable (TransportResponse) -> Item, summary: String
    ) async throws -> DownloadResult {
        guard let (lower, upper) = HTTPDownloader.bounds(of: range, total: total) else {
            await response.body.discard()
            throw ProviderError(.unsupported, "the server ignores ranges and did not send a length", request: summary)
        }
        let wanted = upper.map { $0 - lower + 1 }
        try await sink.begin(offset: 0, expectedLength: wanted, validator: response.etag)
        var position = bodyStart
        var kept: Int64 = 0
        do {
            for try await var piece in response.body {
                try Task.checkCancellation()
                let pieceStart = position
                position += Int64(piece.readableBytes)
                let from = max(lower, pieceStart)
                let to = min(upper.map { $0 + 1 } ?? position, position)
                if to > from {
                    piece.moveReaderIndex(forwardBy: Int(from - pieceStart))
                    if let slice = piece.readSlice(length: Int(to - from)) {
                        try await sink.write(slice)
                        kept += Int64(slice.readableBytes)
                        options.progress?(TransferProgress(completed: kept, expected: wanted))
                    }
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
        var item = itemFor(response)
        if let total { item.size = total }
        return DownloadResult(item: item, bytesReceived: kept, offset: lower)
    }
}

/// A parsed `Content-Range: bytes a-b/total` header.
package struct ContentRange: Sendable, Hashable {
    /// First byte.
    package var start: Int64
    /// Last byte, inclusive.
    package var end: Int64
    /// Total length, when known.
    package var total: Int64?

    /// Parses the header value; `nil` if malformed. `bytes */total` (a 416 answer) gives start 0, end -1.
    package init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let rest = trimmed.dropFirst(6)
        let parts = rest.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        total = parts[1] == "*" ? nil : Self.number(parts[1])
        if parts[1] != "*", total == nil { return nil }
        if parts[0] == "*" {
            start = 0
            end = -1
            return
        }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let a = Self.number(bounds[0]), let b = Self.number(bounds[1]), a <= b else { return nil }
        start = a
        end = b
    }

    /// A number as RFC 9110 writes it: ASCII digits only (no sign, no space), fitting `Int64`.
    static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int64(text)
    }
}

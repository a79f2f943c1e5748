import Foundation
import NIOCore
import NIOHTTP1

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
    /// - Parameters:
    ///   - expected: what the adapter knows of the item (size, etag, digests), if anything.
    ///   - errorFor: maps a non-2xx response (with up to 64 KiB of its body) to the error to throw.
    ///   - itemFor: builds the item from the response headers.
    ///   - isError: says whether a 2xx answer is an error in disguise (a server that answers a
    ///     download with an XML or HTML error page and status 200); its body is then read for `errorFor`.
    ///   - rangeHeader: spells a range for this server's `Range` header, given the content's size
    ///     when known (`expected?.size`); by default the standard spelling. For servers whose ranges
    ///     are off by one: a range answered wider than asked is cut down to what was asked.
    public func download(
        _ request: HTTPRequest, to sink: any DownloadSink, options: DownloadOptions, expected: Item?,
        errorFor: @Sendable (HTTPResponse, ByteBuffer) -> ProviderError,
        itemFor: @Sendable (HTTPResponse) -> Item,
        isError: (@Sendable (HTTPResponse) -> Bool)? = nil,
        rangeHeader: (@Sendable (ByteRange, Int64?) -> String)? = nil
    ) async throws -> DownloadResult {
        var request = request
        var resumeFrom: Int64 = 0
        let spell: @Sendable (ByteRange) -> String = { range in rangeHeader?(range, expected?.size) ?? range.httpHeaderValue }
        if options.resume, options.range == nil, let point = try await sink.resumePoint(), point.length > 0 {
            resumeFrom = point.length
            request.headers.replaceOrAdd(name: "Range", value: spell(.from(point.length)))
            if let validator = point.validator ?? expected?.etag, !validator.hasPrefix("W/") {
                request.headers.replaceOrAdd(name: "If-Range", value: validator)
            }
        } else if let range = options.range {
            request.headers.replaceOrAdd(name: "Range", value: spell(range))
        }
        if let ifMatch = options.ifMatch { request.headers.replaceOrAdd(name: "If-Match", value: ifMatch) }
        if let ifNoneMatch = options.ifNoneMatch { request.headers.replaceOrAdd(name: "If-None-Match", value: ifNoneMatch) }

        let response = try await executor.execute(request)
        let summary = request.summary

        if response.status == 304 {
            await response.body.discard()
            return DownloadResult(item: itemFor(response), notModified: true, bytesReceived: 0)
        }
        if response.status == 416, resumeFrom > 0 {
            // The sink already holds everything, if the server's length agrees.
            let total = response.headers.first(name: "content-range").flatMap(ContentRange.init)?.total
            await response.body.discard()
            if total == resumeFrom {
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

        var offset: Int64 = 0
        var total: Int64? = response.contentLength
        if response.status == 206 {
            guard let range = response.headers.first(name: "content-range").flatMap(ContentRange.init) else {
                await response.body.discard()
                throw ProviderError(.invalidResponse, "206 without a valid Content-Range", httpStatus: 206, request: summary)
            }
            offset = range.start
            total = range.total
            if resumeFrom > 0, offset != resumeFrom {
                await response.body.discard()
                throw ProviderError(.invalidResponse, "asked to resume at \(resumeFrom), the server sent from \(offset)", httpStatus: 206, request: summary)
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
        let bodyLength = response.contentLength
        let item = itemFor(response)
        let validator = response.etag ?? expected?.etag
        try await sink.begin(offset: offset, expectedLength: bodyLength, validator: validator)

        // Digest check only when the whole content passes through this call. It is computed beside
        // the transfer (another core), and checked before the sink may finish.
        var digester: OverlappedDigester?
        var digestWanted: String?
        if options.verifyDigest, offset == 0, options.range == nil {
            let declared = item.digests.isEmpty ? (expected?.digests ?? [:]) : item.digests
            for algorithm in [DigestAlgorithm.sha256, .sha1, .md5] {
                if let value = declared[algorithm], let made = Digester(algorithm) {
                    digester = OverlappedDigester(made)
                    digestWanted = value.lowercased()
                    break
                }
            }
        }

        var received: Int64 = 0
        let expectedTotal = response.status == 206 ? total : (bodyLength.map { $0 + offset } ?? expected?.size)
        do {
            options.progress?(TransferProgress(completed: offset, expected: expectedTotal))
            for try await piece in response.body {
                try Task.checkCancellation()
                await digester?.update(piece)
                try await sink.write(piece)
                received += Int64(piece.readableBytes)
                options.progress?(TransferProgress(completed: offset + received, expected: expectedTotal))
            }
            try Task.checkCancellation()
            if let bodyLength, received != bodyLength {
                throw ProviderError(.network, "the body ended after \(received) of \(bodyLength) bytes", request: summary)
            }
            // A resumed (or unranged) 206 must reach the end of the content, or the file would be short.
            if response.status == 206, options.range == nil, let total, offset + received != total {
                throw ProviderError(
                    .invalidResponse, "the server sent bytes \(offset)-\(offset + received - 1) of \(total), not the rest of the file",
                    request: summary)
            }
            if var digester, let digestWanted {
                let got = await digester.finalize()
                if got != digestWanted {
                    throw ProviderError(
                        .integrity, "\(digester.algorithm) digest \(got) does not match the declared \(digestWanted)", request: summary)
                }
            }
            try await sink.finish()
        } catch {
            await sink.fail()
            throw ProviderError.wrap(error, request: summary)
        }
        var result = item
        if result.size == nil, let total { result.size = total }
        return DownloadResult(item: result, bytesReceived: received, offset: offset)
    }

    /// The first and last byte `range` asks for, in content of `total` bytes.
    static func bounds(of range: ByteRange, total: Int64?) -> (lower: Int64, upper: Int64?)? {
        switch range {
        case .bytes(let r): return (r.lowerBound, total.map { min(r.upperBound, $0 - 1) } ?? r.upperBound)
        case .from(let o): return (o, total.map { $0 - 1 })
        case .suffix(let n):
            guard let total else { return nil }
            return (max(0, total - n), total - 1)
        }
    }

    /// For servers that answer a range request with more than the range (the whole body as 200,
    /// or a wider 206): keep only the bytes asked for. `bodyStart` is where the body begins in the content.
    private func sliceBody(
        _ response: HTTPResponse, range: ByteRange, bodyStart: Int64, total: Int64?, sink: any DownloadSink,
        options: DownloadOptions, itemFor: @Sendable (HTTPResponse) -> Item, summary: String
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
public struct ContentRange: Sendable, Hashable {
    /// First byte.
    public var start: Int64
    /// Last byte, inclusive.
    public var end: Int64
    /// Total length, when known.
    public var total: Int64?

    /// Parses the header value; `nil` if malformed. `bytes */total` (a 416 answer) gives start 0, end -1.
    public init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let rest = trimmed.dropFirst(6)
        let parts = rest.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        total = parts[1] == "*" ? nil : Int64(parts[1])
        if parts[1] != "*", total == nil { return nil }
        if parts[0] == "*" {
            start = 0
            end = -1
            return
        }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let a = Int64(bounds[0]), let b = Int64(bounds[1]), a <= b else { return nil }
        start = a
        end = b
    }
}

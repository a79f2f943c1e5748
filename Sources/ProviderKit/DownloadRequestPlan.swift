import Foundation
import ProviderAPI

/// What a download asks a server that serves byte ranges, and how its answers are read: the rules
/// every such adapter keeps (``DownloadPlan``'s, for a server whose item may not be known in full
/// before it answers). `HTTPDownloader` is the HTTP wiring of this plan.
///
/// The request:
/// - `DownloadOptions.resume` (without a range) continues the sink's partial bytes
///   (`DownloadSink.resumePoint()`) only under a strong validator (``isStrong(_:)``), sent with
///   the request (HTTP `If-Range`) so the server sends everything if its content is no longer
///   theirs. Bytes without a validator, or under a weak one, are of unknown origin: the whole
///   content is asked and the sink drops them. Never a splice of two contents.
/// - Otherwise `DownloadOptions.range`, or the whole content.
///
/// The answer (``judge(_:request:)``):
/// - A partial answer that was not asked for, whose range cannot be read or contradicts itself or
///   its length, or (to a resume) that does not start where asked or does not reach the content's
///   end is refused (`ProviderError.Code.invalidResponse`); so is a negative length.
/// - A partial answer to a resume whose validator is not the one kept is ``DownloadVerdict/restart``.
/// - A whole answer to a range request, or a partial one wider than asked, is
///   ``DownloadVerdict/cut(bodyStart:from:to:total:)`` to the range asked; one that does not cover
///   the range asked is refused. A range whose end depends on a size nobody told (a suffix of
///   content of unknown length) cannot be cut: `ProviderError.Code.unsupported`.
/// - A "range not satisfiable" answer to a resume means the sink holds it all when the sizes agree
///   (``DownloadVerdict/alreadyWhole(total:)``), else `ProviderError.Code.conflict`.
///
/// ```swift
/// let point = options.resume && options.range == nil ? try await sink.resumePoint() : nil
/// var plan = DownloadRequestPlan(options: options, resumePoint: point, expected: item)
/// // ask for plan.range, with plan.validator as the server's "if still this content" condition
/// switch try plan.judge(DownloadAnswer(.partial(ServedRange(start: 0, end: 99, total: 100)), length: 100), request: nil) {
/// case .take(let offset, let end): break       // write the body at offset
/// case .cut(let bodyStart, let from, let to, _): break   // keep only from..<to of a body starting at bodyStart
/// case .restart: plan.restart()                 // and ask again
/// default: break
/// }
/// ```
public struct DownloadRequestPlan: Sendable, Hashable {
    /// The byte range to ask for; `nil` for the whole content.
    public private(set) var range: ByteRange?
    /// The validator to send with ``range`` (HTTP `If-Range`): set only when the range continues
    /// the sink's partial bytes, and then always strong.
    public private(set) var validator: String?
    /// Where the body continues what the sink holds (0: it does not).
    public private(set) var resumeFrom: Int64
    /// The range the caller asked for (`DownloadOptions.range`).
    public let requested: ByteRange?
    /// The size the provider reported for the content before asking, if any.
    public let expectedSize: Int64?
    /// How many times a cut body may be continued (`DownloadOptions.maxResumes`).
    public let maxResumes: Int

    /// Plans the request for `options`, given what the sink holds (`nil` when it holds nothing or
    /// resume was not asked) and what the provider knows of the item (`nil` when nothing).
    public init(options: DownloadOptions, resumePoint: ResumePoint?, expected: Item?) {
        requested = options.range
        expectedSize = expected?.size
        maxResumes = options.maxResumes
        range = options.range
        resumeFrom = 0
        if options.resume, options.range == nil, let point = resumePoint, point.length > 0,
            let held = point.validator, Self.isStrong(held)
        {
            range = .from(point.length)
            validator = held
            resumeFrom = point.length
        }
    }

    /// Whether the whole content is asked (no `DownloadOptions.range`).
    public var isWholeFile: Bool { requested == nil }

    /// Whether `validator` may let bytes be continued: it is not empty and not a weak entity tag
    /// (`W/"…"`: equivalent content, not the same bytes). A provider keeps other validators
    /// (HTTP's `Last-Modified` date) only when they are strong.
    public static func isStrong(_ validator: String) -> Bool {
        !validator.isEmpty && !ETag.isWeak(validator)
    }

    /// Whether an answer named `answered` (``DownloadAnswer/validator``) is of other content than
    /// bytes kept under `held`; an answer that names nothing contradicts nothing. A weak and a
    /// strong entity tag of the same value name the same content.
    public static func contradicts(_ held: String, _ answered: String?) -> Bool {
        guard let answered else { return false }
        return !ETag.weaklyEqual(held, answered)
    }

    /// Gives up the resume the server contradicted: the whole content is asked again and the sink
    /// drops its partial bytes.
    public mutating func restart() {
        range = requested
        validator = nil
        resumeFrom = 0
    }

    /// What to do with the first answer to the request (see the type's rules).
    ///
    /// - Parameters:
    ///   - answer: the server's answer.
    ///   - request: the request's summary, for errors.
    /// - Throws: `ProviderError` (`invalidResponse`, `conflict`, `unsupported`) for an answer
    ///   that must be refused; its body must then be dropped.
    public func judge(_ answer: DownloadAnswer, request: String?) throws -> DownloadVerdict {
        switch answer.kind {
        case .notModified: return .notModified
        case .rangeNotSatisfiable(let total): return try unsatisfiable(total: total, request: request)
        case .otherSuccess, .failure: return .failure
        case .whole:
            if answer.isErrorPage { return .failure }
            try Self.requireLength(answer, request: request)
            // A whole answer to a range request: the server ignored the range and sent everything.
            if requested != nil, resumeFrom == 0 { return try cut(bodyStart: 0, total: answer.length, request: request) }
            return .take(offset: 0, end: answer.length)
        case .partial(let served):
            if resumeFrom > 0, let validator, Self.contradicts(validator, answer.validator) { return .restart }
            if answer.isErrorPage { return .failure }
            try Self.requireLength(answer, request: request)
            return try partial(served, answer: answer, request: request)
        }
    }

    /// A "range not satisfiable" answer: to a resume, the sink holds everything if the sizes agree.
    func unsatisfiable(total: Int64?, request: String?) throws -> DownloadVerdict {
        guard resumeFrom > 0 else { return .failure }
        guard total == resumeFrom, expectedSize.map({ $0 == resumeFrom }) ?? true else {
            throw ProviderError(.conflict, "the partial download no longer matches the file", httpStatus: 416, request: request)
        }
        return .alreadyWhole(total: resumeFrom)
    }

    /// A partial answer: only for a range that was asked; to a resume, the rest of the content; to
    /// a range, that range or a wider one to cut down.
    func partial(_ served: ServedRange?, answer: DownloadAnswer, request: String?) throws -> DownloadVerdict {
        guard resumeFrom > 0 || requested != nil else {
            // Never asked: writing it at its offset would put it beside nothing.
            throw ProviderError(.invalidResponse, "206 for a range that was not asked", httpStatus: 206, request: request)
        }
        let range = try Self.checked(served, length: answer.length, request: request)
        if resumeFrom > 0 {
            try Self.requireRest(range, from: resumeFrom, request: request)
            return .take(offset: range.start, end: range.end + 1)
        }
        if let requested, let (lower, upper) = requested.bounds(inContentOf: range.total),
            range.start != lower || (upper.map { range.end != $0 } ?? false)
        {
            // A wider range than asked for (sabre 1.8 answers bytes=0-0 with everything): cut it down.
            guard range.start <= lower, upper.map({ range.end >= $0 }) ?? true else {
                throw ProviderError(
                    .invalidResponse, "the server sent bytes \(range.start)-\(range.end), not the range asked for", httpStatus: 206,
                    request: request)
            }
            return try cut(bodyStart: range.start, total: range.total, request: request)
        }
        return .take(offset: range.start, end: range.end + 1)
    }

    /// Keeps only the range asked of a body starting at `bodyStart`; a range whose bounds depend on
    /// a size nobody told cannot be cut.
    func cut(bodyStart: Int64, total: Int64?, request: String?) throws -> DownloadVerdict {
        guard let requested, let (lower, upper) = requested.bounds(inContentOf: total) else {
            throw ProviderError(.unsupported, "the server ignores ranges and did not send a length", request: request)
        }
        return .cut(bodyStart: bodyStart, from: lower, to: upper.map { $0 + 1 }, total: total)
    }

    /// A negative declared length is no answer.
    static func requireLength(_ answer: DownloadAnswer, request: String?) throws {
        if let length = answer.length, length < 0 {
            throw ProviderError(.invalidResponse, "a negative Content-Length", httpStatus: answer.status, request: request)
        }
    }

    /// The range of a partial answer, checked against itself and the answer's length.
    static func checked(_ served: ServedRange?, length: Int64?, request: String?) throws -> ServedRange {
        guard let range = served, range.start >= 0, range.end >= range.start else {
            throw ProviderError(.invalidResponse, "206 without a valid Content-Range", httpStatus: 206, request: request)
        }
        if let total = range.total, range.end >= total {
            throw ProviderError(
                .invalidResponse, "Content-Range bytes \(range.start)-\(range.end) lies past the total of \(total)", httpStatus: 206,
                request: request)
        }
        if let length, length != range.end - range.start + 1 {
            throw ProviderError(
                .invalidResponse, "Content-Length \(length) does not match Content-Range bytes \(range.start)-\(range.end)",
                httpStatus: 206, request: request)
        }
        return range
    }

    /// A partial answer that continues the content at `position` must start there and reach the
    /// content's end, or the file would be short.
    static func requireRest(_ range: ServedRange, from position: Int64, request: String?) throws {
        if range.start != position {
            throw ProviderError(
                .invalidResponse, "asked to resume at \(position), the server sent from \(range.start)", httpStatus: 206, request: request)
        }
        if let total = range.total, range.end != total - 1 {
            throw ProviderError(
                .invalidResponse, "the server sent bytes \(range.start)-\(range.end) of \(total), not the rest of the file", httpStatus: 206,
                request: request)
        }
    }
}

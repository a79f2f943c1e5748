import Foundation
import ProviderAPI

/// What a download reads, worked out from its `DownloadOptions`, the item and what the sink
/// already holds, with the rules every adapter keeps (``DownloadRequestPlan`` keeps them for a
/// server that serves ranges, `HTTPDownloader` through it):
///
/// - `ifMatch` that is not the item's etag is `ProviderError.Code.preconditionFailed`;
///   `ifNoneMatch` that is the item's etag reads nothing (``notModified``).
/// - A `DownloadOptions.range` reads those bytes, clipped to the content; one that starts at or
///   past the end is `ProviderError.Code.invalidArgument`. The sink gets them as a body of their
///   own (it begins at 0).
/// - `DownloadOptions.resume` (without a range) continues what the sink holds
///   (`DownloadSink.resumePoint()`) only when its validator is still the item's etag and strong
///   (``DownloadRequestPlan/isStrong(_:)``); a different or weak etag, or bytes without a
///   validator (of unknown origin), start over, as `If-Range`
///   does: never a splice of two contents. Holding the whole file reads nothing and
///   finishes; holding more than the file is `ProviderError.Code.conflict`.
/// - Anything else reads the whole file.
///
/// ```swift
/// let item = try await stat(path)
/// let point = options.resume ? try await sink.resumePoint() : nil
/// let plan = try DownloadPlan(options: options, item: item, resumePoint: point)
/// if plan.notModified { return DownloadResult(item: item, notModified: true, bytesReceived: 0) }
/// let body = try folder.openFile(named: name).chunks(from: plan.start, to: plan.end)
/// return try await DownloadDriver(plan: plan, item: item, options: options).run(body, into: sink)
/// ```
public struct DownloadPlan: Sendable, Hashable {
    /// The first byte to read.
    public var start: Int64
    /// The byte after the last one to read (`start == end` reads nothing).
    public var end: Int64
    /// Whether the body continues what the sink holds (it begins at ``start``) rather than being
    /// a body of its own (it begins at 0).
    public var continuesSink: Bool
    /// Whether `ifNoneMatch` matched: nothing is read and the sink is not touched.
    public var notModified: Bool
    /// Whether the whole content passes through the sink, so a declared digest can be checked.
    package var coversWholeFile: Bool { start == 0 && end == total }
    /// The size of the whole content.
    public var total: Int64

    /// How many bytes to read.
    package var length: Int64 { end - start }
    /// The offset to give `DownloadSink.begin(offset:expectedLength:validator:)`.
    package var sinkOffset: Int64 { continuesSink ? start : 0 }

    /// Creates a plan directly.
    package init(start: Int64, end: Int64, total: Int64, continuesSink: Bool = false, notModified: Bool = false) {
        self.start = start
        self.end = end
        self.total = total
        self.continuesSink = continuesSink
        self.notModified = notModified
    }

    /// Works out the plan for a download of `item` (its `Item.size` and `Item.etag` are
    /// used) with `options`, given what the sink holds (`nil` when it holds nothing or resume was
    /// not asked).
    ///
    /// - Throws: `ProviderError.Code.preconditionFailed`, `ProviderError.Code.invalidArgument`
    ///   for a range past the end or an item of unknown size, `ProviderError.Code.conflict` for a
    ///   sink holding more than the file.
    public init(options: DownloadOptions, item: Item, resumePoint: ResumePoint?) throws {
        guard let size = item.size, size >= 0 else {
            throw ProviderError(.invalidArgument, "the size of \(item.path) is not known")
        }
        total = size
        notModified = false
        continuesSink = false
        start = 0
        end = size
        if let ifMatch = options.ifMatch, ifMatch != item.etag {
            throw ProviderError(.preconditionFailed, "\(item.path) changed: its etag is \(item.etag ?? "none"), not \(ifMatch)")
        }
        if let ifNoneMatch = options.ifNoneMatch, ifNoneMatch == item.etag {
            notModified = true
            end = 0
            return
        }
        if let range = options.range {
            guard let (lower, upper) = range.bounds(inContentOf: size), lower >= 0, lower < size, upper.map({ $0 >= lower }) ?? true else {
                throw ProviderError(.invalidArgument, "the range \(range.httpHeaderValue) lies outside the \(size) bytes of \(item.path)")
            }
            start = lower
            end = min(size, (upper ?? size - 1) + 1)
            return
        }
        guard options.resume, let point = resumePoint, point.length > 0 else { return }
        // Never blind: held bytes are continued only under the strong etag they came from.
        guard let validator = point.validator, DownloadRequestPlan.isStrong(validator), let etag = item.etag, validator == etag
        else { return }
        guard point.length <= size else {
            throw ProviderError(.conflict, "the partial download holds \(point.length) bytes, more than the \(size) of \(item.path)")
        }
        start = point.length
        continuesSink = true
    }
}

extension ByteRange {
    /// The first and last byte (inclusive) this range asks for in content of `total` bytes, the
    /// last `nil` when `total` is unknown and the range runs to the end; `nil` for a
    /// `ByteRange.suffix(_:)` of content of unknown size. Bounds past the end are clipped to it.
    ///
    /// ```swift
    /// ByteRange.suffix(50).bounds(inContentOf: 1000)     // (950, 999)
    /// ByteRange.bytes(10...5000).bounds(inContentOf: 1000) // (10, 999)
    /// ```
    package func bounds(inContentOf total: Int64?) -> (lower: Int64, upper: Int64?)? {
        switch self {
        case .bytes(let r): return (r.lowerBound, total.map { min(r.upperBound, $0 - 1) } ?? r.upperBound)
        case .from(let o): return (o, total.map { $0 - 1 })
        case .suffix(let n):
            guard let total else { return nil }
            return (max(0, total - n), total - 1)
        }
    }
}

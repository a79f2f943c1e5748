import Foundation
import ProviderAPI

/// Writes a download's body into a `DownloadSink` the way the contract asks: `begin` once,
/// every piece in order, then exactly one of `finish` or `fail`.
///
/// On the way it reports progress (towards the whole content), honours cancellation between
/// pieces, refuses a body longer than the ``DownloadPlan`` (`ProviderError.Code.integrity`)
/// or shorter (`ProviderError.Code.network`, "the body ended after N of M bytes"), and, when
/// the whole file passes through and `DownloadOptions.verifyDigest` is on, checks the digest the
/// item declares before the sink may finish. On any error the sink fails, so nothing is left
/// under a `FileSink`'s final name, and the error is rethrown as a `ProviderError`.
///
/// ```swift
/// let plan = try DownloadPlan(options: options, item: item, resumePoint: point)
/// let body = try folder.openFile(named: name).chunks(from: plan.start, to: plan.end)   // any AsyncSequence of ByteBuffer
/// return try await DownloadDriver(plan: plan, item: item, options: options).run(body, into: sink)
/// ```
public struct DownloadDriver: Sendable {
    /// What is read.
    package let plan: DownloadPlan
    /// The item downloaded (its etag is the sink's validator, its digests are checked).
    package let item: Item
    /// The caller's options (progress, digest check).
    package let options: DownloadOptions
    /// The request to name in errors, if any.
    package let request: String?

    /// Creates a driver.
    public init(plan: DownloadPlan, item: Item, options: DownloadOptions, request: String? = nil) {
        self.plan = plan
        self.item = item
        self.options = options
        self.request = request
    }

    /// Streams `body` (the bytes ``DownloadPlan/start``..<``DownloadPlan/end``) into `sink`.
    ///
    /// For a ``DownloadPlan/notModified`` plan the sink is not touched and the result says so.
    public func run<Body: AsyncSequence>(_ body: Body, into sink: any DownloadSink) async throws -> DownloadResult
    where Body.Element == ByteBuffer {
        if plan.notModified { return DownloadResult(item: item, notModified: true, bytesReceived: 0) }
        let progressTotal = plan.continuesSink || plan.coversWholeFile ? plan.total : plan.length
        let base = plan.continuesSink ? plan.start : 0
        var check = options.verifyDigest && plan.coversWholeFile ? DigestCheck(declared: item.digests) : nil
        try await sink.begin(offset: plan.sinkOffset, expectedLength: plan.length, validator: item.etag)
        let received: Int64
        do {
            options.progress?(TransferProgress(completed: base, expected: progressTotal))
            var pour = Pour(sink: sink, position: base, ceiling: base + plan.length, progressTotal: progressTotal, request: request)
            if let cut = try await pour.run(body, digest: &check, progress: options.progress) { throw cut }
            received = pour.position - base
            if received < plan.length { throw Self.shortfall(received, of: plan.length, request: request) }
            try await check?.verify(request: request)
            try await sink.finish()
        } catch {
            await sink.fail()
            throw ProviderError.wrap(error, request: request)
        }
        return DownloadResult(item: item, bytesReceived: received, offset: plan.start)
    }
}

extension DownloadDriver {
    /// One body written into a sink that has begun: every piece in order, cancellation checked
    /// between pieces, progress after each, and nothing past ``ceiling``. The step every download
    /// loop shares (``DownloadDriver/run(_:into:)`` and an HTTP downloader's, which may pour
    /// several bodies into one sink when it continues a cut answer).
    package struct Pour: Sendable {
        /// Where the bytes go.
        package let sink: any DownloadSink
        /// Where the next byte lies in what progress counts (the content, or the range asked).
        package var position: Int64
        /// Where the body must end at the latest (the smallest size declared for it), if known.
        package var ceiling: Int64?
        /// What progress counts toward, if known.
        package var progressTotal: Int64?
        /// The request to name in errors, if any.
        package let request: String?

        /// Creates a pour from `position` on.
        package init(sink: any DownloadSink, position: Int64, ceiling: Int64?, progressTotal: Int64?, request: String?) {
            self.sink = sink
            self.position = position
            self.ceiling = ceiling
            self.progressTotal = progressTotal
            self.request = request
        }

        /// Writes `body` into the sink, feeding `digest` on the way. A body that goes past the
        /// ceiling is `ProviderError.Code.integrity`; one cut by a network error is returned (the
        /// caller may continue it) rather than thrown, any other error is thrown.
        package mutating func run<Body: AsyncSequence>(
            _ body: Body, digest: inout DigestCheck?, progress: ProgressHandler?
        ) async throws -> ProviderError? where Body.Element == ByteBuffer {
            var iterator = body.makeAsyncIterator()
            while true {
                try Task.checkCancellation()
                let next: ByteBuffer?
                do {
                    next = try await iterator.next()
                } catch {
                    let wrapped = ProviderError.wrap(error, request: request)
                    guard wrapped.code == .network else { throw wrapped }
                    try Task.checkCancellation()
                    return wrapped
                }
                guard let piece = next else { break }
                let count = Int64(piece.readableBytes)
                if let ceiling, position + count > ceiling { throw DownloadDriver.overrun(ceiling, request: request) }
                await digest?.update(piece)
                try await sink.write(piece)
                position += count
                progress?(TransferProgress(completed: position, expected: progressTotal))
            }
            try Task.checkCancellation()
            return nil
        }
    }

    /// A body longer than declared: `ProviderError.Code.integrity`.
    package static func overrun(_ declared: Int64, request: String?) -> ProviderError {
        ProviderError(.integrity, "the server sent more than the \(declared) bytes it declared", request: request)
    }

    /// A body that ended short: `ProviderError.Code.network` (the download may be resumed).
    package static func shortfall(_ received: Int64, of wanted: Int64, request: String?) -> ProviderError {
        ProviderError(.network, "the body ended after \(received) of \(wanted) bytes", request: request)
    }
}

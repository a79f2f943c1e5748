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
        var received: Int64 = 0
        try await sink.begin(offset: plan.sinkOffset, expectedLength: plan.length, validator: item.etag)
        do {
            options.progress?(TransferProgress(completed: base, expected: progressTotal))
            for try await piece in body {
                try Task.checkCancellation()
                let count = Int64(piece.readableBytes)
                guard received + count <= plan.length else {
                    throw ProviderError(.integrity, "the body holds more than the \(plan.length) bytes declared", request: request)
                }
                await check?.update(piece)
                try await sink.write(piece)
                received += count
                options.progress?(TransferProgress(completed: base + received, expected: progressTotal))
            }
            try Task.checkCancellation()
            guard received == plan.length else {
                throw ProviderError(.network, "the body ended after \(received) of \(plan.length) bytes", request: request)
            }
            try await check?.verify(request: request)
            try await sink.finish()
        } catch {
            await sink.fail()
            throw ProviderError.wrap(error, request: request)
        }
        return DownloadResult(item: item, bytesReceived: received, offset: plan.start)
    }
}

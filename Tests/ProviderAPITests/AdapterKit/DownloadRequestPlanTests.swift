import Foundation
import NIOCore
import ProviderAPI
import ProviderKit
import Testing

// Written as an outside adapter author would: plain imports, public API only. The adapter reads
// its server's answers into DownloadAnswer values; the plan decides what they mean.

private let file = Item(path: "/docs/report.bin", kind: .file, size: 100, etag: "\"v1\"")

/// A plan for `options`, the sink holding `held` bytes under `validator` (nothing when `held` is 0).
private func plan(_ options: DownloadOptions, held: Int64 = 0, validator: String? = nil, expected: Item? = file) -> DownloadRequestPlan {
    DownloadRequestPlan(options: options, resumePoint: held > 0 ? ResumePoint(length: held, validator: validator) : nil, expected: expected)
}

/// A `206` serving `start...end` of `total` bytes, with a consistent length.
private func partial(_ start: Int64, _ end: Int64, of total: Int64?, etag: String? = "\"v1\"") -> DownloadAnswer {
    DownloadAnswer(.partial(ServedRange(start: start, end: end, total: total)), length: end - start + 1, etag: etag)
}

@Suite("Adapter kit: DownloadRequestPlan")
struct DownloadRequestPlanTests {
    @Test("a plain download asks for everything and takes the whole answer")
    func whole() throws {
        let plan = plan(DownloadOptions())
        #expect(plan.range == nil && plan.validator == nil && plan.resumeFrom == 0)
        #expect(try plan.judge(DownloadAnswer(.whole, length: 100, etag: "\"v1\""), request: nil) == .take(offset: 0, end: 100))
        #expect(try plan.judge(DownloadAnswer(.notModified), request: nil) == .notModified)
        #expect(try plan.judge(DownloadAnswer(.failure), request: nil) == .failure)
        #expect(try plan.judge(DownloadAnswer(.whole, length: 100, isErrorPage: true), request: nil) == .failure)
    }

    @Test("a resume under a strong etag asks for the rest under it and continues the sink")
    func resumeStrong() throws {
        let plan = plan(DownloadOptions(resume: true), held: 40, validator: "\"v1\"")
        #expect(plan.range == .from(40))
        #expect(plan.validator == "\"v1\"")
        #expect(plan.resumeFrom == 40)
        #expect(try plan.judge(partial(40, 99, of: 100), request: nil) == .take(offset: 40, end: 100))
        // The server checked the validator and sent everything: the sink starts over.
        #expect(try plan.judge(DownloadAnswer(.whole, length: 100, etag: "\"v2\""), request: nil) == .take(offset: 0, end: 100))
    }

    @Test(
        "a resume is refused on a weak validator or none: the whole file is asked, the held bytes dropped",
        arguments: [String?.some("W/\"v1\""), .some(""), .none])
    func resumeWeak(validator: String?) throws {
        let plan = plan(DownloadOptions(resume: true), held: 40, validator: validator)
        #expect(plan.range == nil, "no Range for bytes kept under \(String(describing: validator))")
        #expect(plan.validator == nil)
        #expect(plan.resumeFrom == 0)
        #expect(try plan.judge(DownloadAnswer(.whole, length: 100), request: nil) == .take(offset: 0, end: 100))
        #expect(!DownloadRequestPlan.isStrong(validator ?? ""))
        #expect(DownloadRequestPlan.isStrong("\"v1\""))
    }

    @Test("DownloadPlan keeps the same rule: bytes held under a weak etag start over, even when it is the item's")
    func weakForLocalPlans() throws {
        let weak = Item(path: "/docs/report.bin", kind: .file, size: 100, etag: "W/\"v1\"")
        let plan = try DownloadPlan(options: DownloadOptions(resume: true), item: weak, resumePoint: ResumePoint(length: 40, validator: "W/\"v1\""))
        #expect(plan.start == 0 && !plan.continuesSink)
        let strong = try DownloadPlan(options: DownloadOptions(resume: true), item: file, resumePoint: ResumePoint(length: 40, validator: "\"v1\""))
        #expect(strong.start == 40 && strong.continuesSink)
    }

    @Test("a partial answer of other content than the held bytes restarts the download from byte 0")
    func resumeContradicted() throws {
        var plan = plan(DownloadOptions(resume: true), held: 40, validator: "\"v1\"")
        #expect(try plan.judge(partial(40, 99, of: 100, etag: "\"v2\""), request: nil) == .restart)
        // A weak tag of the same value is the same content (Apache turns a weak tag strong a second later).
        #expect(try plan.judge(partial(40, 99, of: 100, etag: "W/\"v1\""), request: nil) == .take(offset: 40, end: 100))
        plan.restart()
        #expect(plan.range == nil && plan.validator == nil && plan.resumeFrom == 0)
        #expect(try plan.judge(DownloadAnswer(.whole, length: 100, etag: "\"v2\""), request: nil) == .take(offset: 0, end: 100))
    }

    @Test("a ranged answer wider than asked is cut to what was asked; a narrower one is refused")
    func wider() throws {
        let plan = plan(DownloadOptions(range: .bytes(10...19)))
        #expect(plan.range == .bytes(10...19))
        #expect(try plan.judge(partial(10, 19, of: 100), request: nil) == .take(offset: 10, end: 20))
        #expect(try plan.judge(partial(0, 99, of: 100), request: nil) == .cut(bodyStart: 0, from: 10, to: 20, total: 100))
        #expect(try plan.judge(partial(5, 30, of: 100), request: nil) == .cut(bodyStart: 5, from: 10, to: 20, total: 100))
        // The server ignored the range and sent everything.
        #expect(try plan.judge(DownloadAnswer(.whole, length: 100), request: nil) == .cut(bodyStart: 0, from: 10, to: 20, total: 100))
        let narrower = #expect(throws: ProviderError.self) { try plan.judge(partial(12, 19, of: 100), request: "GET /docs/report.bin") }
        #expect(narrower?.code == .invalidResponse)
        #expect(narrower?.message == "the server sent bytes 12-19, not the range asked for")
        #expect(narrower?.request == "GET /docs/report.bin")
    }

    @Test("an unknown end: a range to the end is cut without a length, a suffix cannot be, a resume's rest is taken")
    func unknownEnd() throws {
        let tail = plan(DownloadOptions(range: .from(10)), expected: nil)
        #expect(try tail.judge(DownloadAnswer(.whole), request: nil) == .cut(bodyStart: 0, from: 10, to: nil, total: nil))
        #expect(try tail.judge(partial(10, 99, of: nil), request: nil) == .take(offset: 10, end: 100))

        let suffix = plan(DownloadOptions(range: .suffix(50)), expected: nil)
        let error = #expect(throws: ProviderError.self) { try suffix.judge(DownloadAnswer(.whole), request: nil) }
        #expect(error?.code == .unsupported)

        let resume = plan(DownloadOptions(resume: true), held: 40, validator: "\"v1\"", expected: nil)
        #expect(try resume.judge(partial(40, 99, of: nil), request: nil) == .take(offset: 40, end: 100))
        let short = #expect(throws: ProviderError.self) { try resume.judge(partial(40, 89, of: 100), request: nil) }
        #expect(short?.message == "the server sent bytes 40-89 of 100, not the rest of the file")
        let elsewhere = #expect(throws: ProviderError.self) { try resume.judge(partial(0, 99, of: 100), request: nil) }
        #expect(elsewhere?.message == "asked to resume at 40, the server sent from 0")
    }

    @Test("partial answers that were not asked, or whose range is missing or inconsistent, are refused")
    func badPartials() throws {
        let whole = plan(DownloadOptions())
        let unasked = #expect(throws: ProviderError.self) { try whole.judge(partial(0, 9, of: 100), request: nil) }
        #expect(unasked?.message == "206 for a range that was not asked")

        let ranged = plan(DownloadOptions(range: .bytes(0...9)))
        let answers: [DownloadAnswer] = [
            DownloadAnswer(.partial(nil), length: 10),
            DownloadAnswer(.partial(ServedRange(start: 0, end: 100, total: 100)), length: 101),
            DownloadAnswer(.partial(ServedRange(start: 0, end: 9, total: 100)), length: 11),
            DownloadAnswer(.whole, length: -1),
        ]
        for answer in answers {
            let error = #expect(throws: ProviderError.self) { try ranged.judge(answer, request: nil) }
            #expect(error?.code == .invalidResponse, "\(answer)")
        }
    }

    @Test("range not satisfiable to a resume: the sink holds it all when the sizes agree, else a conflict")
    func unsatisfiable() throws {
        let resume = plan(DownloadOptions(resume: true), held: 100, validator: "\"v1\"")
        #expect(try resume.judge(DownloadAnswer(.rangeNotSatisfiable(total: 100)), request: nil) == .alreadyWhole(total: 100))
        let error = #expect(throws: ProviderError.self) { try resume.judge(DownloadAnswer(.rangeNotSatisfiable(total: 120)), request: nil) }
        #expect(error?.code == .conflict)
        #expect(try plan(DownloadOptions()).judge(DownloadAnswer(.rangeNotSatisfiable(total: 100)), request: nil) == .failure)
    }

    @Test("a cut body is continued only under a strong validator, where ranges are served, a bounded number of times")
    func continuation() throws {
        let whole = plan(DownloadOptions(maxResumes: 2))
        let ask = try #require(whole.continuation(at: 30, resumes: 0, rangesShown: true, validator: "\"v1\""))
        #expect(ask.range == .from(30) && ask.validator == "\"v1\"")
        #expect(whole.continuation(at: 30, resumes: 0, rangesShown: true, validator: "W/\"v1\"") == nil)
        #expect(whole.continuation(at: 30, resumes: 0, rangesShown: true, validator: nil) == nil)
        #expect(whole.continuation(at: 30, resumes: 0, rangesShown: false, validator: "\"v1\"") == nil)
        #expect(whole.continuation(at: 30, resumes: 2, rangesShown: true, validator: "\"v1\"") == nil)
        #expect(plan(DownloadOptions(range: .from(10))).continuation(at: 30, resumes: 0, rangesShown: true, validator: "\"v1\"") == nil)
    }

    @Test("the answer to a continuation: the rest of the same content, else the cut stands or the change is a conflict")
    func continuationAnswers() throws {
        let whole = plan(DownloadOptions())
        let cut = ProviderError(.network, "connection reset", request: "GET /docs/report.bin")
        func judge(_ answer: DownloadAnswer) throws -> ServedRange? {
            try whole.judgeContinuation(answer, at: 30, firstETag: "\"v1\"", validator: "\"v1\"", totals: [100], cut: cut)
        }
        #expect(try judge(partial(30, 99, of: 100)) == ServedRange(start: 30, end: 99, total: 100))
        let changed = #expect(throws: ProviderError.self) { try judge(partial(30, 99, of: 100, etag: "\"v2\"")) }
        #expect(changed?.code == .conflict)
        let resized = #expect(throws: ProviderError.self) { try judge(partial(30, 119, of: 120)) }
        #expect(resized?.code == .conflict)
        let ignored = #expect(throws: ProviderError.self) { try judge(DownloadAnswer(.whole, length: 100, etag: "\"v1\"")) }
        #expect(ignored == cut, "the range was not served: the cut stands")
        #expect(try judge(DownloadAnswer(.failure)) == nil, "a failure is the adapter's own error")
    }

    @Test("DownloadDriver.cut writes only the bytes asked of a wider body, as a body of its own")
    func cutBody() async throws {
        let content = Array(0..<100).map { UInt8($0) }
        // The body in pieces of 7 bytes, starting at byte 5 of the content (a wider 206).
        let pieces = stride(from: 5, to: 100, by: 7).map { ByteBuffer(bytes: content[$0..<min($0 + 7, 100)]) }
        let sink = MemorySink()
        let kept = try await DownloadDriver.cut(
            AsyncStream<ByteBuffer> { continuation in
                pieces.forEach { continuation.yield($0) }
                continuation.finish()
            }, bodyStart: 5, from: 10, to: 20, validator: "\"v1\"", into: sink, progress: nil)
        #expect(kept == 10)
        #expect(await sink.bytes == Array(content[10..<20]))

        let short = MemorySink()
        let error = await #expect(throws: ProviderError.self) {
            _ = try await DownloadDriver.cut(
                AsyncStream<ByteBuffer> { continuation in
                    continuation.yield(ByteBuffer(bytes: content[0..<15]))
                    continuation.finish()
                }, bodyStart: 0, from: 10, to: 20, validator: nil, into: short, progress: nil)
        }
        #expect(error?.code == .network)
        #expect(error?.message == "the body ended after 5 of the 10 bytes asked for")
    }
}

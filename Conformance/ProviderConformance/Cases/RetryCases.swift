import Foundation
import NIOConcurrencyHelpers
import ProviderAPI

/// Transient failures are retried; long throttling surfaces as `.rateLimited`; a failed upload
/// leaves nothing behind and can be retried.
///
/// The first two cases inject faults in the transport (HTTP adapters; others skip them with
/// ``SkipReason/noTransport``); `retries.afterSourceFailure` breaks the upload's source, so it
/// tests every adapter, HTTP-based or not.
enum RetryCases {
    static var all: [ConformanceCase] { [transientFailures, rateLimited, afterSourceFailure] }

    static let transientFailures = ConformanceCase(
        "retries.transientFailures",
        summary: "A read that first meets a 503 with Retry-After: 1 and then a connection failure still succeeds"
    ) { context in
        let bytes = Array("retried content".utf8)
        let uploaded = try await context.upload(bytes, as: "retry.txt")
        let (faulty, faults) = try await context.makeFaultInjectingProvider()
        let fired = NIOLockedValueBox(0)

        func injectPair() {
            faults.inject { request in
                guard TransportChecks.isRead(request) else { return nil }
                fired.withLockedValue { $0 += 1 }
                return .status(503, retryAfter: 1)
            }
            faults.inject { request in
                guard TransportChecks.isRead(request) else { return nil }
                fired.withLockedValue { $0 += 1 }
                return .connectionFailure
            }
        }

        injectPair()
        let statted = await TransportChecks.outcome { try await faulty.item(at: uploaded.path) }
        try TransportChecks.expectUsed(faults, context: context)
        try TransportChecks.expectApplied(faults, since: 0, count: 2, "a 503 then a connection failure for item(at:)")
        try context.expect(fired.withLockedValue { $0 } == 2, "only \(fired.withLockedValue { $0 }) of the 2 faults were met by item(at:)")
        let stat = try statted.get()
        try context.expect(stat.size == Int64(bytes.count), "item(at:) after retries says size \(String(describing: stat.size))")

        injectPair()
        let sink = MemorySink()
        _ = try await faulty.download(uploaded.path, to: sink, options: DownloadOptions())
        try context.expect(fired.withLockedValue { $0 } == 4, "only \(fired.withLockedValue { $0 } - 2) of the 2 faults were met by download")
        let got = await sink.bytes
        try context.expect(got == bytes, "the download after retries holds \(ByteSummary.describe(got))")
        context.note("\(faults.requests.count) requests for 2 calls")
    }

    static let rateLimited = ConformanceCase(
        "retries.rateLimited",
        summary: "A 429 whose Retry-After is too long to wait fails at once with .rateLimited and its retryAfter"
    ) { context in
        let uploaded = try await context.upload(text: "x", as: "limited.txt")
        let (faulty, faults) = try await context.makeFaultInjectingProvider()
        let day = 86_400
        faults.inject { TransportChecks.isRead($0) ? .status(429, retryAfter: day) : nil }
        let path = uploaded.path
        let before = faults.appliedFaults
        let error = try await TimeLimit.run(.seconds(120), "item(at:) answered by 429 Retry-After: \(day)") {
            do {
                _ = try await faulty.item(at: path)
                return Optional<any Error>.none
            } catch {
                return Optional<any Error>.some(error)
            }
        }
        try TransportChecks.expectUsed(faults, context: context)
        try TransportChecks.expectApplied(faults, since: before, "a 429 with Retry-After: \(day)")
        guard let error else { throw ConformanceFailure("item(at:) succeeded although the server answered 429") }
        guard let providerError = error as? ProviderError else {
            throw ConformanceFailure("item(at:) threw \(type(of: error)) \(error), not ProviderError .rateLimited")
        }
        try context.expect(providerError.code == .rateLimited, "item(at:) threw \(providerError), not .rateLimited")
        try context.expect(
            providerError.retryAfter == .seconds(day),
            "the error's retryAfter is \(String(describing: providerError.retryAfter)), the server said \(day) s")
    }

    static let afterSourceFailure = ConformanceCase(
        "retries.afterSourceFailure",
        summary: """
            An upload whose source breaks part-way throws a ProviderError and leaves nothing under the final name \
            (an overwritten file keeps its old content); the same upload from a good source then succeeds
            """
    ) { context in
        // Past the 2 MiB a chunked upload sends in its first chunks, so the break comes between chunks.
        let bytes = RandomBytes.make((3 << 20) + 5)
        let brokenAt = (2 << 20) + 77
        let old = Array("the old content".utf8)
        let kept = try await context.upload(old, as: "kept.bin")
        let newPath = try context.path("new.bin")
        var codes: [String] = []

        for (name, conflict) in [("new.bin", ConflictPolicy.fail), ("kept.bin", .overwrite)] {
            let source = BreakingSource(bytes, breakingAfter: brokenAt)
            let outcome = await TransportChecks.outcome {
                try await context.provider.upload(source, to: context.folder, name: name, options: UploadOptions(conflict: conflict))
            }
            switch outcome {
            case .success(let item):
                throw ConformanceFailure("upload(\(conflict)) of \(name) succeeded although its source broke after \(brokenAt) of \(bytes.count) bytes (it returned \(item.path))")
            case .failure(let error):
                guard let providerError = error as? ProviderError else {
                    throw ConformanceFailure("upload(\(conflict)) of \(name) whose source broke threw \(type(of: error)) \(error), not a ProviderError")
                }
                codes.append("\(providerError.code)")
            }
        }
        try await context.expectMissing(newPath, "after the upload whose source broke")
        try await context.expectContent(kept.path, old, "after the overwriting upload whose source broke")
        // Only the final names are the contract's; a stray staging file is worth a note (a server may
        // still be writing an aborted body when the adapter deletes its temporary).
        let stray = try await context.children().map(\.name).filter { $0 != "kept.bin" }.sorted()
        if !stray.isEmpty { context.note("left beside the final names: \(stray.joined(separator: ", "))") }
        context.note("the broken sources surfaced as \(codes.joined(separator: ", "))")

        // The caller's retry, from a good source.
        try await context.upload(bytes, as: "new.bin", options: UploadOptions(conflict: .fail))
        try await context.expectContent(newPath, bytes, "uploaded again after its source broke")
        try await context.upload(bytes, as: "kept.bin", options: UploadOptions(conflict: .overwrite))
        try await context.expectContent(kept.path, bytes, "overwritten again after the source broke")
    }
}

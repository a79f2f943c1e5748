import Foundation
import NIOConcurrencyHelpers
import ProviderAPI

/// Transient failures are retried; long throttling surfaces as `.rateLimited`.
enum RetryCases {
    static var all: [ConformanceCase] { [transientFailures, rateLimited] }

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
}

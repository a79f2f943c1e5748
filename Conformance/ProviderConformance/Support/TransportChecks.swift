import Foundation
import ProviderAPI
import HTTPProviderKit
import ProviderTesting

/// Checks about a case's own transports.
package enum TransportChecks {
    /// Skips the case if the provider never sent a request through `faults`: an adapter that
    /// does not use the transport it is given cannot be tested with injected faults.
    package static func expectUsed(_ faults: FaultInjectingTransport, context: ConformanceContext) throws {
        if faults.requests.isEmpty {
            throw ConformanceSkip(.noTransport)
        }
    }

    /// Fails the case as "fault not applied" unless at least `count` injected faults took
    /// effect since `before` (a ``FaultInjectingTransport/appliedFaults`` reading): a case whose
    /// fault never met the answer it was meant for proves nothing, whatever its call returned.
    ///
    /// Call it after ``expectUsed(_:context:)``, and before judging the call's outcome.
    package static func expectApplied(
        _ faults: FaultInjectingTransport, since before: Int, count: Int = 1, _ fault: String
    ) throws {
        let applied = faults.appliedFaults - before
        guard applied >= count else {
            let sent = faults.requests
            let shown = sent.suffix(6).joined(separator: "; ")
            throw ConformanceFailure(
                "fault not applied: \(fault) took effect \(applied) of \(count) times over \(sent.count) requests (last: \(shown))")
        }
    }

    /// The outcome of `operation`, thrown or returned, to be judged after the transport checks.
    package static func outcome<Value: Sendable>(_ operation: () async throws -> Value) async -> Result<Value, any Error> {
        do {
            return .success(try await operation())
        } catch {
            return .failure(error)
        }
    }

    /// Whether `request` only reads, and may be retried whatever its body.
    static func isRead(_ request: TransportRequest) -> Bool {
        ["GET", "HEAD", "PROPFIND", "REPORT", "SEARCH", "OPTIONS"].contains(request.method.rawValue)
    }
}

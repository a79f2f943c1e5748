import Foundation
import ProviderAPI

/// Checks about a case's own transports.
enum TransportChecks {
    /// Skips the case if the provider never sent a request through `faults`: an adapter that
    /// does not use the transport it is given cannot be tested with injected faults.
    static func expectUsed(_ faults: FaultInjectingTransport, context: ConformanceContext) throws {
        if faults.requests.isEmpty {
            throw ConformanceSkip("the provider sent no request through the transport it was given, so faults cannot be injected")
        }
    }

    /// Whether `request` only reads, and may be retried whatever its body.
    static func isRead(_ request: HTTPRequest) -> Bool {
        ["GET", "HEAD", "PROPFIND", "REPORT", "SEARCH", "OPTIONS"].contains(request.method.rawValue)
    }
}

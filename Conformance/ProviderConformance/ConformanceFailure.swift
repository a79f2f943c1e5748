import Foundation

/// Thrown by a case body when the provider did something the contract forbids.
package struct ConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// What was wrong, for the report.
    package var detail: String

    /// Creates a failure.
    package init(_ detail: String) { self.detail = detail }

    package var description: String { detail }
}

/// Thrown by a case body when the case does not apply to this provider.
///
/// The ``reason`` names what excuses the case, as ``SkipReason/noModifiedTimes`` or
/// ``SkipReason/capability(_:)``: a skip is never a silent pass, and never without a reason.
///
/// ```swift
/// guard context.capabilities.shareKinds.contains(.publicLink) else { throw ConformanceSkip(.shareKind(.publicLink)) }
/// ```
package struct ConformanceSkip: Error, Sendable, CustomStringConvertible {
    /// Why the case was skipped.
    package var reason: SkipReason

    /// Creates a skip.
    package init(_ reason: SkipReason) { self.reason = reason }

    package var description: String { reason.description }
}

import Foundation

/// Thrown by a case body when the provider did something the contract forbids.
public struct ConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// What was wrong, for the report.
    public var detail: String

    /// Creates a failure.
    public init(_ detail: String) { self.detail = detail }

    public var description: String { detail }
}

/// Thrown by a case body when the case does not apply to this provider.
///
/// The ``reason`` names what excuses the case, as ``SkipReason/noModifiedTimes`` or
/// ``SkipReason/capability(_:)``: a skip is never a silent pass, and never without a reason.
///
/// ```swift
/// guard context.capabilities.shareKinds.contains(.publicLink) else { throw ConformanceSkip(.shareKind(.publicLink)) }
/// ```
public struct ConformanceSkip: Error, Sendable, CustomStringConvertible {
    /// Why the case was skipped.
    public var reason: SkipReason

    /// Creates a skip.
    public init(_ reason: SkipReason) { self.reason = reason }

    public var description: String { reason.description }
}

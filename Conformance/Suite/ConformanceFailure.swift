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
/// The reason must name the capability or option that excuses the case, as in
/// `"capabilities.modifiedTimePrecision is nil"`; a skip is never a silent pass.
public struct ConformanceSkip: Error, Sendable, CustomStringConvertible {
    /// Why the case was skipped.
    public var reason: String

    /// Creates a skip.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

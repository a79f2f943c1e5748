import Foundation
import ProviderAPI

/// One check of the conformance suite: a name, the features it needs, and a body.
///
/// A suite runs the cases it is given: ``ConformanceCatalog/standard``, and the sections other
/// modules add (`SharedCacheConformance.offline`, `SharedCacheConformance.journal`). Each runs in
/// its own empty scratch folder; a case whose required features the provider does not declare is
/// skipped with those features named (``SkipReason/capability(_:)``), and never run.
///
/// ```swift
/// let suite = ConformanceSuite(subject: "acme", cases: ConformanceCatalog.standard + SharedCacheConformance.offline) { … }
/// ```
public struct ConformanceCase: Sendable, Identifiable {
    /// The body of a case.
    package typealias Body = @Sendable (ConformanceContext) async throws -> Void

    /// The unique name, `group.case` (for example `listing.paging`).
    public let name: String
    /// The group, by default the part of ``name`` before the first dot.
    public let group: String
    /// What the case proves, in one sentence.
    public let summary: String
    /// The features the provider must declare for the case to run.
    package let requires: Capabilities.Features
    /// Whether the case runs only with ``ConformanceOptions/largeFiles``.
    package let needsLargeFiles: Bool
    /// The check itself.
    package let body: Body

    /// The case's name.
    public var id: String { name }

    /// Creates a case.
    package init(
        _ name: String, group: String? = nil, requires: Capabilities.Features = [], needsLargeFiles: Bool = false,
        summary: String, body: @escaping Body
    ) {
        self.name = name
        self.group = group ?? String(name.prefix { $0 != "." })
        self.summary = summary
        self.requires = requires
        self.needsLargeFiles = needsLargeFiles
        self.body = body
    }

    /// Why the case cannot run against `capabilities` with `options`, or `nil` if it can.
    package func skipReason(capabilities: Capabilities, options: ConformanceOptions) -> SkipReason? {
        let missing = requires.subtracting(capabilities.features)
        if !missing.isEmpty {
            return .capability(missing)
        }
        if needsLargeFiles, !options.largeFiles {
            return .opted("large files are off (set ConformanceOptions.largeFiles or \(ConformanceOptions.largeFilesEnvironmentKey)=1)")
        }
        return nil
    }
}

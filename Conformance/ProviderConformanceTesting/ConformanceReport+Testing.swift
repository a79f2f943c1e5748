import ProviderConformance
import Testing

extension ConformanceReport {
    /// Records one Swift Testing issue per failed case, with its detail, one per skipped case
    /// whose reason names nothing (`.capability([])`, `.opted("")`: see `SkipReason.isEmpty`), and
    /// one if no case passed.
    ///
    /// Skips with a reason record nothing; they are listed in `ConformanceReport.text`.
    public func recordIssues(sourceLocation: SourceLocation = #_sourceLocation) {
        for failure in failures {
            Issue.record(
                "conformance case \(failure.name) failed: \(failure.outcome.detail ?? "")",
                sourceLocation: sourceLocation)
        }
        for result in results {
            if let reason = result.outcome.skipReason, reason.isEmpty {
                Issue.record("conformance case \(result.name) was skipped without a reason", sourceLocation: sourceLocation)
            }
        }
        if counts.passed == 0 {
            Issue.record(
                "no conformance case passed for \(subject) (\(counts.failed) failed, \(counts.skipped) skipped)",
                sourceLocation: sourceLocation)
        }
    }
}

extension ConformanceReport {
    /// Records an issue for each skipped case that neither a declared capability
    /// (`SkipReason.isCapability`) nor the run's own options (`.opted`) excuse, for suites where
    /// nothing else may: an HTTP adapter that skips with `.noTransport` sent a request around the
    /// transport it was given, and a `.cancelled` run proves nothing.
    public func recordUnexcusedSkips(sourceLocation: SourceLocation = #_sourceLocation) {
        for result in results {
            guard let reason = result.outcome.skipReason else { continue }
            if case .opted = reason, !reason.isEmpty { continue }
            if !reason.isCapability {
                Issue.record("skip of \(result.name) is not excused by a capability: \(reason)", sourceLocation: sourceLocation)
            }
        }
    }
}

/// Runs `suite`, prints its report, records an issue per failed case, and returns the report.
///
/// ```swift
/// @Test func conformance() async throws {
///     let suite = ConformanceSuite(subject: "webdav \(url)") { environment in
///         try WebDAVProvider(configuration: ProviderConfiguration(url: url, services: environment.services))
///     }
///     await runConformance(suite)
/// }
/// ```
@discardableResult
public func runConformance(
    _ suite: ConformanceSuite, printReport: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
) async -> ConformanceReport {
    let report = await suite.run()
    if printReport { print(report.text) }
    report.recordIssues(sourceLocation: sourceLocation)
    return report
}

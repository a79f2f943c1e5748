import ProviderConformance
import Testing

extension ConformanceReport {
    /// Records one Swift Testing issue per failed case, with its detail, and one if no case passed.
    ///
    /// Skipped cases record nothing; they are listed in `ConformanceReport.text`.
    public func recordIssues(sourceLocation: SourceLocation = #_sourceLocation) {
        for failure in failures {
            Issue.record(
                "conformance case \(failure.name) failed: \(failure.outcome.detail ?? "")",
                sourceLocation: sourceLocation)
        }
        if counts.passed == 0 {
            Issue.record(
                "no conformance case passed for \(subject) (\(counts.failed) failed, \(counts.skipped) skipped)",
                sourceLocation: sourceLocation)
        }
    }
}

extension ConformanceReport {
    /// Records an issue for each skipped case whose reason names no capability, for suites where
    /// only a declared capability may excuse a case (a capability is named as `.quota` or
    /// `capabilities.shareKinds`, so a reason without a `.` names none).
    public func recordUnexcusedSkips(sourceLocation: SourceLocation = #_sourceLocation) {
        for result in results {
            if case .skipped(let reason) = result.outcome, !reason.contains(".") {
                Issue.record("skip of \(result.name) does not name a capability: \(reason)", sourceLocation: sourceLocation)
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

import Foundation
import ProviderAPI

/// One check of the conformance suite: a name, the features it needs, and a body.
///
/// The body runs in its own empty scratch folder (``ConformanceContext/folder``).
/// It passes by returning, fails by throwing (a ``ConformanceFailure`` says what
/// was wrong; any other error is reported with its description) and skips by
/// throwing ``ConformanceSkip`` with a ``SkipReason``. A case whose ``requires`` the provider does not
/// declare is skipped with those features named (``SkipReason/capability(_:)``), and never run.
///
/// Third parties can add their own cases to a suite:
///
/// ```swift
/// let extra = ConformanceCase("vendor.locks", requires: [], summary: "Locks survive a rename") { context in
///     let item = try await context.provider.item(at: context.folder)
///     try context.expect(item.isFolder, "the case folder is not a folder")
/// }
/// let suite = ConformanceSuite(subject: "acme", cases: ConformanceCatalog.standard + [extra]) { … }
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

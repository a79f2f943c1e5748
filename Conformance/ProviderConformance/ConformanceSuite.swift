import Foundation
import ProviderAPI
import HTTPProviderKit
import ProviderTesting

/// Runs the conformance cases against a provider rooted at an area of a live server.
///
/// The suite wraps `ConformanceOptions.baseTransport` in a `CountingTransport`
/// and asks the adapter's factory for a provider over it. It then creates a fresh
/// scratch folder `strata-conformance-<random>` at the provider's root, runs each
/// selected case in its own subfolder, one after another, and deletes the scratch
/// folder at the end; a failed deletion is reported as the failed case `cleanup`.
///
/// ```swift
/// let suite = ConformanceSuite(subject: "webdav \(url)") { environment in
///     try await WebDAVProvider.connect(ProviderConfiguration(url: url, credentials: credentials, transport: environment.transport))
/// }
/// let report = await suite.run()
/// print(report.text)
/// ```
///
/// ## Topics
/// - ``run(onResult:)``
/// - ``ConformanceReport``
/// - ``ConformanceCatalog``
public struct ConformanceSuite: Sendable {
    /// Makes the provider under test from what the suite offers (``ConformanceEnvironment``).
    public typealias MakeProvider = @Sendable (ConformanceEnvironment) async throws -> any StorageProvider

    /// What is being tested, for the report.
    package let subject: String
    /// How the suite runs.
    package let options: ConformanceOptions
    /// Every case the suite knows, before ``ConformanceOptions/caseFilter``.
    package let cases: [ConformanceCase]
    private let makeProvider: MakeProvider

    /// Creates a suite.
    ///
    /// - Parameters:
    ///   - subject: what is being tested, for the report.
    ///   - options: how the suite runs.
    ///   - cases: the cases; ``ConformanceCatalog/standard`` unless the run adds sections (such as
    ///     `SharedCacheConformance.offline`) or an adapter adds its own cases, appended after it.
    ///   - makeProvider: makes a provider (over the environment's transport, for an HTTP adapter), rooted where the suite may
    ///     create and delete a scratch folder. The suite may call it more than once; every provider
    ///     must reach the same server and root.
    public init(
        subject: String, options: ConformanceOptions = ConformanceOptions(),
        cases: [ConformanceCase] = ConformanceCatalog.standard,
        makeProvider: @escaping MakeProvider
    ) {
        self.subject = subject
        self.options = options
        self.cases = cases
        self.makeProvider = makeProvider
    }

    /// The cases ``ConformanceOptions/caseFilter`` selects, in the order they run.
    package var selectedCases: [ConformanceCase] { cases.filter { options.selects($0) } }

    /// The names in ``ConformanceOptions/caseFilter`` that match no case and no group, for callers to warn about.
    package var unmatchedFilterNames: Set<String> {
        guard let filter = options.caseFilter else { return [] }
        return filter.subtracting(cases.map(\.name)).subtracting(cases.map(\.group))
    }

    /// Runs the selected cases and reports on each.
    ///
    /// - Parameter onResult: called after each case, for callers that print as they go.
    public func run(onResult: (@Sendable (CaseResult) -> Void)? = nil) async -> ConformanceReport {
        let startedAt = Date()
        let clock = ContinuousClock()
        let started = clock.now
        var results: [CaseResult] = []
        let record: (CaseResult) -> Void = { result in
            results.append(result)
            onResult?(result)
        }

        let transport = CountingTransport(options.baseTransport)
        let setupStarted = clock.now
        let scratchName = "strata-conformance-\(RandomName.token())"
        let localRoot = FileManager.default.temporaryDirectory.appendingPathComponent(scratchName, isDirectory: true)
        let provider: any StorageProvider
        let scratch: ItemPath
        do {
            provider = try await makeProvider(ConformanceEnvironment(transport: transport))
            try FileManager.default.createDirectory(at: localRoot, withIntermediateDirectories: true)
            scratch = try await provider.createFolder(named: scratchName, in: .root).path
        } catch {
            record(CaseResult(
                name: "setup", group: "suite",
                outcome: .failed("could not create the scratch folder \(scratchName): \(CaseRunner.describe(error))"),
                durationSeconds: (clock.now - setupStarted).seconds))
            try? FileManager.default.removeItem(at: localRoot)
            return ConformanceReport(subject: subject, startedAt: startedAt, durationSeconds: (clock.now - started).seconds, results: results)
        }

        let runner = CaseRunner(
            provider: provider, transport: transport, scratch: scratch, localRoot: localRoot, options: options,
            factory: makeProvider)
        for conformanceCase in selectedCases {
            record(await runner.run(conformanceCase))
        }

        let cleanupStarted = clock.now
        let cleanup = await Self.deleteScratch(scratch, provider: provider)
        try? FileManager.default.removeItem(at: localRoot)
        if let cleanup {
            record(CaseResult(
                name: "cleanup", group: "suite", outcome: .failed(cleanup),
                durationSeconds: (clock.now - cleanupStarted).seconds))
        }
        return ConformanceReport(subject: subject, startedAt: startedAt, durationSeconds: (clock.now - started).seconds, results: results)
    }

    /// Deletes the scratch folder in a fresh task, so that cleanup runs even when the run was cancelled.
    private static func deleteScratch(_ scratch: ItemPath, provider: any StorageProvider) async -> String? {
        await Task {
            do {
                try await provider.delete(scratch)
            } catch {
                return "could not delete the scratch folder \(scratch): \(CaseRunner.describe(error))"
            }
            do {
                _ = try await provider.item(at: scratch)
                return "the scratch folder \(scratch) still exists after it was deleted"
            } catch let error as ProviderError where error.code == .notFound {
                return nil
            } catch {
                return "could not check that \(scratch) was deleted: \(CaseRunner.describe(error))"
            }
        }.value
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

import Foundation
import ProviderAPI
import ProviderTesting

/// Runs one case in its own folders and turns whatever it does into a ``CaseResult``.
struct CaseRunner: Sendable {
    let provider: any StorageProvider
    let transport: CountingTransport
    let scratch: ItemPath
    let localRoot: URL
    let options: ConformanceOptions
    let factory: ConformanceSuite.MakeProvider

    func run(_ conformanceCase: ConformanceCase) async -> CaseResult {
        let clock = ContinuousClock()
        let started = clock.now
        let log = NoteLog()
        func result(_ outcome: CaseResult.Outcome) -> CaseResult {
            CaseResult(
                name: conformanceCase.name, group: conformanceCase.group, outcome: outcome,
                durationSeconds: (clock.now - started).seconds, notes: log.all)
        }

        if let reason = conformanceCase.skipReason(capabilities: provider.capabilities, options: options) {
            return result(.skipped(reason))
        }
        if Task.isCancelled {
            return result(.skipped(.cancelled))
        }
        let folderName = Self.folderName(for: conformanceCase.name)
        let local = localRoot.appendingPathComponent(folderName, isDirectory: true)
        let folder: ItemPath
        do {
            try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
            folder = try await provider.createFolder(named: folderName, in: scratch).path
        } catch {
            return result(.failed("could not create the case folder \(folderName): \(Self.describe(error))"))
        }
        let context = ConformanceContext(
            provider: provider, transport: transport, folder: folder, scratch: scratch, options: options,
            temporaryDirectory: local, factory: factory, log: log)
        let outcome: CaseResult.Outcome
        do {
            try await conformanceCase.body(context)
            outcome = .passed
        } catch let skip as ConformanceSkip {
            outcome = .skipped(skip.reason)
        } catch {
            outcome = .failed(Self.describe(error))
        }
        try? FileManager.default.removeItem(at: local)
        return result(outcome)
    }

    /// A folder name made of the case's letters, digits and dashes.
    static func folderName(for caseName: String) -> String {
        String(caseName.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
    }

    /// How an error reads in a report.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let failure as ConformanceFailure: return failure.detail
        case let providerError as ProviderError: return "unexpected error: \(providerError)"
        default: return "unexpected error: \(String(describing: error))"
        }
    }
}

import ArgumentParser
import Foundation
import ProviderAPI
import ProviderConformance
import SharedCacheConformance

struct ConformanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run the Strata conformance suite against a live server.",
        discussion: """
            The suite works in a scratch folder strata-conformance-<random> that it creates under the \
            target folder and removes at the end. It exits non-zero when a case fails. With --list it \
            prints every case it would run (its group, the capabilities it needs, whether it needs \
            --large, and what it proves) and connects to nothing; --json prints that list as JSON.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A folder on the server to work under, e.g. webdav://host/dav/ or nuxeo://host/nuxeo/default-domain/workspaces/ws") var target: String?
    @Option(name: .customLong("case"), help: "Run only these cases or groups (repeatable).") var cases: [String] = []
    @Flag(help: "Also run the 1 GiB round trip.") var large = false
    @Option(help: "How many entries the paging case lists.") var pagingCount = 1050
    @Flag(help: "List the cases (and, with --case, only those named) instead of running them; needs no URL.") var list = false

    /// Every case the command runs: the standard catalog, then SharedCache's offline and journal sections.
    static var suiteCases: [ConformanceCase] {
        ConformanceCatalog.standard + SharedCacheConformance.offline + SharedCacheConformance.journal
    }

    func validate() throws {
        if !list, target == nil { throw ValidationError("give a folder URL to run the suite against, or --list") }
    }

    func run() async throws {
        if list { return try listCases() }
        guard let target else { throw ValidationError("give a folder URL to run the suite against, or --list") }
        let url = try Self.folderURL(target)
        let registry = try global.registry()
        let (factory, root) = try registry.route(url)
        let credentials = try global.credentials(for: url)
        let adapterOptions = try global.providerOptions()
        let logger = global.logger
        let retry = try global.retryPolicy()
        let onRetry = global.retryPrinter
        var options = ConformanceOptions(largeFiles: large, pagingCount: pagingCount, baseTransport: try global.transport())
        if !cases.isEmpty { options.caseFilter = Set(cases) }
        // The provider is rooted at the target folder itself: the suite works below it.
        let suite = ConformanceSuite(
            subject: "\(factory.kind) at \(Redactor.redact(url: root))", options: options,
            cases: Self.suiteCases
        ) { environment in
            let transport = environment.transport
            return try await factory.connect(
                ProviderConfiguration(
                    url: root, credentials: credentials, transport: transport, options: adapterOptions, logger: logger,
                    retry: retry, onRetry: onRetry))
        }
        for name in suite.unmatchedFilterNames { Output.error("warning: no case or group named \(name)") }
        let json = global.json
        let printer: (@Sendable (CaseResult) -> Void)? = json ? nil : { @Sendable result in Output.error(Self.progressLine(result)) }
        let report = await suite.run(onResult: printer)
        if json {
            try Output.json(report)
        } else {
            Output.lines(report.text)
        }
        if report.counts.failed > 0 { throw ExitCode(1) }
    }

    static func folderURL(_ target: String) throws -> URL {
        if let local = TargetText.localPathURL(target) { return local }
        guard let url = URL(string: target), url.scheme != nil else { throw ValidationError("not a URL: \(TerminalText.escape(TargetText.redacted(target)))") }
        return url
    }

    nonisolated static func progressLine(_ result: CaseResult) -> String {
        switch result.outcome {
        case .passed: return "  ok    \(result.name)"
        case .failed(let detail): return "  FAIL  \(result.name): \(detail)"
        case .skipped(let reason): return "  skip  \(result.name): \(reason)"
        }
    }
}

import Foundation
import ProviderAPI
import ProviderConformance

/// Builds suites over a fresh ``InMemoryServer``.
enum ReferenceSuite {
    /// Names as a Pydio-like server takes them: no `? " | \`, no leading space, no dot-files, stored in NFC.
    static let strictNames = NameRules(
        forbiddenCharacters: ["?", "\"", "|", "\\"], allowsLeadingSpace: false, allowsDotFiles: false, normalization: .nfc)

    static func make(
        capabilities: Capabilities = InMemoryProvider.fullCapabilities, defects: InMemoryProvider.Defects = [],
        names: NameRules = NameRules(), filter: Set<String>? = nil, pagingCount: Int = 1050,
        configure: (inout ConformanceOptions) -> Void = { _ in }
    ) -> (suite: ConformanceSuite, server: InMemoryServer) {
        let server = InMemoryServer(names: names)
        var capabilities = capabilities
        capabilities.names = names
        var options = ConformanceOptions(pagingCount: pagingCount, caseFilter: filter, baseTransport: server)
        options.settleTimeout = .seconds(2)
        configure(&options)
        let provider = capabilities
        let suite = ConformanceSuite(subject: "in-memory reference", options: options) { environment in
            let transport = environment.transport
            return InMemoryProvider(transport: transport, capabilities: provider, defects: defects)
        }
        return (suite, server)
    }

    /// The failures of `report`, one per line, for expectation messages.
    static func failures(_ report: ConformanceReport) -> String {
        report.failures.map { "\($0.name): \($0.outcome.detail ?? "")" }.joined(separator: "\n")
    }
}

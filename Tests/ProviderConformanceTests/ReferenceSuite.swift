import Foundation
import ProviderAPI
import ProviderConformance
import SharedCacheConformance

/// Builds suites over a fresh ``InMemoryServer``.
enum ReferenceSuite {
    /// The cases that inject faults in the transport, which a provider that ignores the offered transport skips.
    static let transportFaultCases = [
        "resume.afterDrop", "integrity.truncatedWithoutLength", "retries.transientFailures", "retries.rateLimited", "offline.cachedReads",
        "auth.refusedLogin",
    ]

    /// Names as a Pydio-like server takes them: no `? " | \`, no leading space, no dot-files, stored in NFC.
    static let strictNames = NameRules(
        forbiddenCharacters: ["?", "\"", "|", "\\"], allowsLeadingSpace: false, allowsDotFiles: false, normalization: .nfc)

    static func make(
        capabilities: Capabilities = InMemoryProvider.fullCapabilities, defects: InMemoryProvider.Defects = [],
        names: NameRules = NameRules(), filter: Set<String>? = nil, pagingCount: Int = 1050, ignoresTransport: Bool = false,
        configure: (inout ConformanceOptions) -> Void = { _ in }
    ) -> (suite: ConformanceSuite, server: InMemoryServer) {
        let server = InMemoryServer(names: names)
        var capabilities = capabilities
        capabilities.names = names
        var options = ConformanceOptions(pagingCount: pagingCount, caseFilter: filter, baseTransport: server)
        options.settleTimeout = .seconds(2)
        configure(&options)
        let provider = capabilities
        let suite = ConformanceSuite(subject: "in-memory reference", options: options, cases: ConformanceCatalog.standard + SharedCacheConformance.offline + SharedCacheConformance.journal) { environment in
            // A provider that is not HTTP-based sends nothing through the offered transport: this one then talks to the server directly.
            let transport = ignoresTransport ? server : environment.transport
            return InMemoryProvider(transport: transport, capabilities: provider, defects: defects)
        }
        return (suite, server)
    }

    /// The failures of `report`, one per line, for expectation messages.
    static func failures(_ report: ConformanceReport) -> String {
        report.failures.map { "\($0.name): \($0.outcome.detail ?? "")" }.joined(separator: "\n")
    }
}

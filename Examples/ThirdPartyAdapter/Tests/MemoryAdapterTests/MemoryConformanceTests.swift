import Foundation
import MemoryAdapter
import ProviderAPI
import ProviderConformance
import ProviderConformanceTesting
import SharedCacheConformance
import Testing

@Suite("the memory adapter against the Strata conformance suite")
struct MemoryConformanceTests {
    @Test("every case passes; a skipped case says why")
    func conformance() async throws {
        let factory = MemoryProviderFactory()
        let url = try #require(URL(string: "memory://conformance/"))
        // The factory closure gets the suite's environment; a non-HTTP adapter ignores its transport.
        // The standard cases, plus the shared offline cache and the sync journal in front of the
        // adapter (offline reads; offline writes replayed, and a server-side change in between a conflict).
        let cases = ConformanceCatalog.standard + SharedCacheConformance.offline + SharedCacheConformance.journal
        let suite = ConformanceSuite(subject: "memory adapter", cases: cases) { _ in
            try factory.makeProvider(ProviderConfiguration(url: url))
        }
        // Prints the report and records an issue per failed case and per case skipped without a
        // reason. Cases skip for capabilities the adapter does not declare, and the transport
        // fault cases for a provider that sends nothing through the suite's transport; the sink
        // and source fault cases still run.
        await runConformance(suite)
    }
}

import Foundation
import MemoryAdapter
import ProviderAPI
import ProviderConformance
import ProviderConformanceTesting
import Testing

@Suite("the memory adapter against the Strata conformance suite")
struct MemoryConformanceTests {
    @Test("every case passes; a skipped case says why")
    func conformance() async throws {
        let factory = MemoryProviderFactory()
        let url = try #require(URL(string: "memory://conformance/"))
        // The factory closure gets the suite's environment; a non-HTTP adapter ignores its transport.
        let suite = ConformanceSuite(subject: "memory adapter") { _ in
            try factory.makeProvider(ProviderConfiguration(url: url))
        }
        // Prints the report and records an issue per failed case and per case skipped without a
        // reason. Cases skip for capabilities the adapter does not declare, and the transport
        // fault cases for a provider that sends nothing through the suite's transport; the sink
        // and source fault cases still run.
        await runConformance(suite)
    }
}

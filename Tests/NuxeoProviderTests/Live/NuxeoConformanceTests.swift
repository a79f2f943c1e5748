import Foundation
import NuxeoProvider
import ProviderAPI
import ProviderConformance
import SharedCacheConformance
import ProviderConformanceTesting
import Testing

/// The whole conformance suite against the loopback Nuxeo server, with Basic and with token authentication.
@Suite("Nuxeo conformance on the loopback server")
struct NuxeoConformanceTests {
    /// Basic authentication with the `dc:modified` change feed, and token authentication with Nuxeo Drive's.
    @Test("conformance suite", arguments: [["auth": "basic", "changes": "query"], ["auth": "token", "changes": "drive"]])
    func conformance(options: [String: String]) async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        let label = options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let suite = ConformanceSuite(subject: "Nuxeo (\(label)) on \(nuxeo.server.baseURL)", cases: ConformanceCatalog.standard + SharedCacheConformance.offline + SharedCacheConformance.journal) { environment in
            let transport = environment.transport
            return try await NuxeoProvider.connect(nuxeo.configuration(options: options, transport: transport))
        }
        let report = await suite.run()
        await nuxeo.stop()
        print(report.text)
        report.recordIssues()
        // Only capabilities may excuse a case: every skip names one.
        report.recordUnexcusedSkips()
        #expect(report.counts.failed == 0)
        #expect(report.counts.passed > 60)
    }
}

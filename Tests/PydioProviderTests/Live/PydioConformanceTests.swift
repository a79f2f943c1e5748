import Foundation
import ProviderAPI
import ProviderConformance
import SharedCacheConformance
import ProviderConformanceTesting
import PydioProvider
import Testing

/// The whole conformance suite against the loopback Pydio server.
@Suite("Pydio conformance on the loopback server")
struct PydioConformanceTests {
    @Test("conformance suite")
    func conformance() async throws {
        let pydio = try await LoopbackPydio.start()
        let suite = ConformanceSuite(subject: "Pydio on \(pydio.server.baseURL)", cases: ConformanceCatalog.standard + SharedCacheConformance.offline + SharedCacheConformance.journal) { environment in
            let transport = environment.transport
            return try await PydioProvider.connect(pydio.configuration(transport: transport))
        }
        let report = await suite.run()
        await pydio.stop()
        print(report.text)
        report.recordIssues()
        report.recordUnexcusedSkips()
        #expect(report.counts.failed == 0)
        #expect(report.counts.passed > 40)
        // The links really download (`<link>/dl/<name>`), refuse without their password, and the
        // expiry reported is the whole days the server keeps.
        for name in ["shares.publicLink", "shares.passwordLink", "shares.expiry"] {
            #expect(report.results.contains { $0.name == name && $0.passed }, "\(name) did not pass")
        }
    }
}

import Foundation
import NuxeoProvider
import ProviderAPI
import ProviderConformance
import ProviderConformanceTesting
import Testing

/// The whole conformance suite against the loopback Nuxeo server, with Basic and with token authentication.
@Suite("Nuxeo conformance on the loopback server")
struct NuxeoConformanceTests {
    @Test("conformance suite", arguments: ["basic", "token"])
    func conformance(auth: String) async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        let suite = ConformanceSuite(subject: "Nuxeo (\(auth)) on \(nuxeo.server.baseURL)") { transport in
            try await NuxeoProvider.connect(nuxeo.configuration(options: ["auth": auth], transport: transport))
        }
        let report = await suite.run()
        await nuxeo.stop()
        print(report.text)
        report.recordIssues()
        for result in report.results {
            if case .skipped(let reason) = result.outcome {
                #expect(reason.contains("."), "skip of \(result.name) does not name a capability: \(reason)")
            }
        }
        #expect(report.counts.failed == 0)
        #expect(report.counts.passed > 60)
    }
}

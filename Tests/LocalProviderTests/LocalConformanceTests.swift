import Foundation
import LocalProvider
import ProviderAPI
import ProviderConformance
import ProviderConformanceTesting
import SharedCacheConformance
import Testing

@Suite("LocalProvider conformance")
struct LocalConformanceTests {
    @Test("the whole conformance suite passes on a temporary folder")
    func conformance() async throws {
        let folder = try TemporaryFolder()
        let root = folder.url
        let suite = ConformanceSuite(subject: "local \(root.path)", cases: ConformanceCatalog.standard + SharedCacheConformance.journal) { _ in
            try LocalProvider(root: root)
        }
        let report = await suite.run()
        print(report.text)
        report.recordIssues()
    }
}

import Foundation
import ProviderAPI
import ProviderConformance
import ProviderConformanceTesting
import Testing

@Suite("The suite on a provider with every capability")
struct FullCapabilityTests {
    @Test("every case passes, only the large-file case is skipped, and the scratch folder is deleted")
    func everythingPasses() async throws {
        let (suite, server) = ReferenceSuite.make()
        let report = await suite.run()
        print(report.text)
        #expect(report.counts.failed == 0, "\(ReferenceSuite.failures(report))")
        #expect(report.results.filter(\.skipped).map(\.name) == ["files.large"])
        let large = try #require(report.result(named: "files.large"))
        #expect(large.outcome.detail?.contains("large files are off") == true)
        #expect(report.counts.passed == suite.selectedCases.count - 1)
        #expect(report.result(named: "setup") == nil && report.result(named: "cleanup") == nil)
        #expect(server.nodeCount == 1, "the scratch folder was left behind")
        #expect(report.text.hasSuffix("\n\(report.summaryLine)"))
        report.recordIssues()
    }

    @Test("the large-file case streams a file from disk and back when large files are on")
    func largeFiles() async throws {
        let (suite, _) = ReferenceSuite.make(filter: ["files.large"]) { options in
            options.largeFiles = true
            options.largeFileSize = 9 << 20 + 17
        }
        let report = await suite.run()
        #expect(report.results.map(\.name) == ["files.large"])
        #expect(report.counts.passed == 1, "\(ReferenceSuite.failures(report))")
    }

    @Test("the unsupported-call case has nothing to check when every feature is declared, and says so")
    func unsupportedNothingToCheck() async throws {
        var everything = InMemoryProvider.fullCapabilities
        everything.shareKinds = [.publicLink, .user, .group, .email]
        let (suite, _) = ReferenceSuite.make(capabilities: everything, filter: ["unsupported"])
        let report = await suite.run()
        let result = try #require(report.result(named: "unsupported.calls"))
        #expect(result.passed)
        #expect(result.notes == ["nothing to check: every probed feature is declared"])

        let (partial, _) = ReferenceSuite.make(filter: ["unsupported"])
        let partialResult = try #require(await partial.run().result(named: "unsupported.calls"))
        #expect(partialResult.passed)
        #expect(partialResult.notes == ["checked share(.group), share(.email)"])
    }
}

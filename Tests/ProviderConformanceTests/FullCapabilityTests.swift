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
        for name in ["offline.cachedReads", "resume.afterSinkFailure", "retries.afterSourceFailure", "conflicts.exclusiveCreate", "metadata.stableIDs", "metadata.permissions"] {
            #expect(report.result(named: name)?.passed == true, "\(name)")
        }
        report.recordIssues()
        report.recordUnexcusedSkips()
    }

    @Test("a provider that never sends through the offered transport passes every case but the transport fault cases, which skip with .noTransport")
    func withoutTransport() async throws {
        let (suite, server) = ReferenceSuite.make(ignoresTransport: true)
        let report = await suite.run()
        print(report.text)
        #expect(report.counts.failed == 0, "\(ReferenceSuite.failures(report))")
        var skipped: [String: SkipReason] = [:]
        for result in report.results { if let reason = result.outcome.skipReason { skipped[result.name] = reason } }
        var wanted: [String: SkipReason] = ["files.large": try #require(report.result(named: "files.large")?.outcome.skipReason)]
        for name in ReferenceSuite.transportFaultCases { wanted[name] = .noTransport }
        #expect(skipped == wanted)
        // Resume and a failed upload are still tested, through the sink and the source.
        #expect(report.result(named: "resume.afterSinkFailure")?.passed == true)
        #expect(report.result(named: "retries.afterSourceFailure")?.passed == true)
        #expect(report.counts.passed == suite.selectedCases.count - wanted.count)
        #expect(server.nodeCount == 1, "the scratch folder was left behind")
        report.recordIssues()
        withKnownIssue("a provider that ignores the offered transport is not excused by a capability") {
            report.recordUnexcusedSkips()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("is not excused by a capability: the provider sent no request through the transport") }
        }
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
